<?xml version="1.0" encoding="UTF-8"?>
<!--
  Batch driver for test/support/einvoice-validation.ts: runs many (document, compiled Schematron)
  pairs in ONE Saxon run, so the JVM starts and each validation stylesheet compiles once (fn:transform
  caches the compiled stylesheet), and answers in JSON: per job the SVRL failed asserts and
  successful reports (id, flag, location, test, text) and how many rules fired.

  java -cp Saxon-HE.jar net.sf.saxon.Transform -it -xsl:einvoice-batch.xsl manifest=file:///…/jobs.xml
  jobs.xml: <jobs><job id="…" src="file:///…/doc.xml" xsl="file:///…/rules.xsl"/>…</jobs>
-->
<xsl:stylesheet version="3.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:svrl="http://purl.oclc.org/dsdl/svrl"
    xmlns:err="http://www.w3.org/2005/xqt-errors"
    xmlns:local="urn:sheaf:einvoice-batch"
    exclude-result-prefixes="#all">

  <xsl:output method="json" indent="no" encoding="UTF-8"/>
  <xsl:param name="manifest" as="xs:string" required="yes"/>

  <xsl:template name="xsl:initial-template">
    <xsl:sequence select="array { doc($manifest)/jobs/job ! local:run(.) }"/>
  </xsl:template>

  <xsl:function name="local:run" as="map(*)">
    <xsl:param name="job" as="element(job)"/>
    <xsl:try>
      <xsl:variable name="svrl" select="transform(map {
          'stylesheet-location': string($job/@xsl),
          'source-node': doc(string($job/@src)),
          'cache': true()
        })?output"/>
      <xsl:sequence select="map {
          'id': string($job/@id),
          'firedRules': count($svrl//svrl:fired-rule),
          'findings': array {
            for $f in $svrl//(svrl:failed-assert | svrl:successful-report)
            return map {
              'kind': if ($f/self::svrl:failed-assert) then 'assert' else 'report',
              'id': string($f/@id),
              'flag': string($f/@flag),
              'location': string($f/@location),
              'test': string($f/@test),
              'text': normalize-space(string-join($f/svrl:text, ' '))
            }
          }
        }"/>
      <xsl:catch>
        <xsl:sequence select="map { 'id': string($job/@id), 'error': $err:code || ': ' || $err:description }"/>
      </xsl:catch>
    </xsl:try>
  </xsl:function>
</xsl:stylesheet>
