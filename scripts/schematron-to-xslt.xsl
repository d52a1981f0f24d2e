<?xml version="1.0" encoding="UTF-8"?>
<!--
  A small ISO Schematron -> XSLT 2.0 compiler (Sheaf's own, used by scripts/einvoice-artefacts.sh).

  It compiles KoSIT's XRechnung Schematron SOURCES when only the git sources are at hand (the
  official release zip ships them compiled). It covers exactly what those sources use, and stops
  with an error on anything else rather than compiling it wrongly:
    - sch:schema with queryBinding xslt2/xslt3, sch:ns, sch:title, sch:phase (ignored: no
      defaultPhase means every pattern is active, which is what the sources declare),
    - sch:include (of a pattern or of a schema's children), resolved relative to the including file,
    - sch:pattern (concrete only) with pattern-level sch:let (global variables, as SchXslt does),
    - sch:rule context= with rule-level sch:let (declared before the asserts, in document order),
    - sch:assert / sch:report with id, flag, role, and the messages' sch:name / sch:value-of,
    - xsl:function / xsl:key children of sch:schema (copied into the compiled stylesheet).
  Semantics as in ISO Schematron: within one pattern a node is checked by the first rule whose
  context matches it (rules become templates of one mode with descending priorities).
  Output: SVRL (svrl:schematron-output with active-pattern, fired-rule, failed-assert,
  successful-report; each with id, flag, location, test and svrl:text).

  Run: java -cp Saxon-HE.jar net.sf.saxon.Transform -s:X.sch -xsl:schematron-to-xslt.xsl -o:X.xsl
-->
<xsl:stylesheet version="2.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:axsl="http://www.w3.org/1999/XSL/TransformAlias"
    xmlns:sch="http://purl.oclc.org/dsdl/schematron"
    xmlns:svrl="http://purl.oclc.org/dsdl/svrl"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    exclude-result-prefixes="sch xs">

  <xsl:namespace-alias stylesheet-prefix="axsl" result-prefix="xsl"/>
  <xsl:output method="xml" indent="yes" encoding="UTF-8"/>

  <!-- 1. The schema with every sch:include replaced by what it includes. -->
  <xsl:variable name="schema" as="element(sch:schema)">
    <xsl:apply-templates select="/sch:schema" mode="include"/>
  </xsl:variable>

  <xsl:template match="sch:include" mode="include">
    <xsl:variable name="included" select="document(@href, .)/*"/>
    <xsl:choose>
      <xsl:when test="$included/self::sch:schema">
        <xsl:apply-templates select="$included/*" mode="include"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:apply-templates select="$included" mode="include"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template match="@*|node()" mode="include">
    <xsl:copy>
      <xsl:apply-templates select="@*|node()" mode="include"/>
    </xsl:copy>
  </xsl:template>

  <!-- 2. Refuse what this compiler does not implement. -->
  <xsl:template match="/">
    <xsl:if test="not($schema/@queryBinding = ('xslt2', 'xslt3'))">
      <xsl:message terminate="yes">schematron-to-xslt: queryBinding must be xslt2 or xslt3, not '<xsl:value-of select="$schema/@queryBinding"/>'</xsl:message>
    </xsl:if>
    <xsl:for-each select="$schema//sch:pattern[@abstract = 'true' or @is-a] | $schema//sch:rule[@abstract = 'true'] | $schema//sch:extends | $schema//sch:param | $schema/@defaultPhase | $schema//sch:let[not(@value)]">
      <xsl:message terminate="yes">schematron-to-xslt: unsupported construct <xsl:value-of select="name()"/> (abstract patterns/rules, extends, params, defaultPhase and element-valued lets are not implemented)</xsl:message>
    </xsl:for-each>
    <xsl:for-each select="$schema/*[not(self::sch:*) and not(self::xsl:function or self::xsl:key)]">
      <xsl:message terminate="yes">schematron-to-xslt: unsupported foreign element <xsl:value-of select="name()"/></xsl:message>
    </xsl:for-each>
    <xsl:apply-templates select="$schema" mode="compile"/>
  </xsl:template>

  <!-- 3. The compiled stylesheet. -->
  <xsl:template match="sch:schema" mode="compile">
    <xsl:variable name="declared" select="sch:ns/@prefix"/>
    <axsl:stylesheet version="{if (@queryBinding = 'xslt3') then '3.0' else '2.0'}">
      <!-- The namespaces the expressions may use: the schema element's own and the sch:ns ones. -->
      <xsl:for-each select="namespace::*[name() and not(name() = ('xml', 'svrl', 'xs')) and not(name() = $declared)]">
        <xsl:namespace name="{name()}" select="string(.)"/>
      </xsl:for-each>
      <xsl:for-each select="sch:ns[not(@prefix = ('svrl', 'xs'))]">
        <xsl:namespace name="{@prefix}" select="string(@uri)"/>
      </xsl:for-each>
      <xsl:namespace name="xs" select="'http://www.w3.org/2001/XMLSchema'"/>
      <xsl:namespace name="svrl" select="'http://purl.oclc.org/dsdl/svrl'"/>
      <axsl:output method="xml" indent="no" encoding="UTF-8"/>

      <xsl:copy-of select="xsl:function | xsl:key"/>

      <xsl:for-each select="sch:let | sch:pattern/sch:let">
        <axsl:variable name="{@name}" select="{@value}"/>
      </xsl:for-each>

      <axsl:template match="/">
        <svrl:schematron-output>
          <axsl:attribute name="title"><xsl:value-of select="normalize-space(sch:title)"/></axsl:attribute>
          <xsl:for-each select="sch:ns">
            <svrl:ns-prefix-in-attribute-values prefix="{@prefix}" uri="{@uri}"/>
          </xsl:for-each>
          <xsl:for-each select="sch:pattern">
            <svrl:active-pattern>
              <xsl:if test="@id">
                <axsl:attribute name="id"><xsl:value-of select="@id"/></axsl:attribute>
              </xsl:if>
            </svrl:active-pattern>
            <axsl:apply-templates select="/" mode="M{position()}"/>
          </xsl:for-each>
        </svrl:schematron-output>
      </axsl:template>

      <xsl:for-each select="sch:pattern">
        <xsl:variable name="mode" select="concat('M', position())"/>
        <xsl:for-each select="sch:rule">
          <axsl:template match="{@context}" priority="{1000 - position()}" mode="{$mode}">
            <svrl:fired-rule>
              <axsl:attribute name="context"><xsl:value-of select="@context"/></axsl:attribute>
              <xsl:if test="@id">
                <axsl:attribute name="id"><xsl:value-of select="@id"/></axsl:attribute>
              </xsl:if>
            </svrl:fired-rule>
            <xsl:for-each select="sch:let">
              <axsl:variable name="{@name}" select="{@value}"/>
            </xsl:for-each>
            <xsl:apply-templates select="sch:assert | sch:report" mode="compile"/>
            <axsl:apply-templates select="@*|*" mode="{$mode}"/>
          </axsl:template>
        </xsl:for-each>
        <axsl:template match="text()" priority="-1" mode="{$mode}"/>
        <axsl:template match="@*|node()" priority="-2" mode="{$mode}">
          <axsl:apply-templates select="@*|*" mode="{$mode}"/>
        </axsl:template>
      </xsl:for-each>
    </axsl:stylesheet>
  </xsl:template>

  <xsl:template match="sch:assert" mode="compile">
    <axsl:if test="not(({@test}))">
      <svrl:failed-assert>
        <xsl:call-template name="finding"/>
      </svrl:failed-assert>
    </axsl:if>
  </xsl:template>

  <xsl:template match="sch:report" mode="compile">
    <axsl:if test="{@test}">
      <svrl:successful-report>
        <xsl:call-template name="finding"/>
      </svrl:successful-report>
    </axsl:if>
  </xsl:template>

  <xsl:template name="finding">
    <xsl:for-each select="@id | @flag | @role | @test">
      <axsl:attribute name="{local-name()}"><xsl:value-of select="."/></axsl:attribute>
    </xsl:for-each>
    <axsl:attribute name="location" select="string-join(for $n in ancestor-or-self::node()[parent::node()] return if ($n instance of attribute()) then concat('/@', name($n)) else if ($n instance of element()) then concat('/', name($n), '[', count($n/preceding-sibling::*[node-name(.) = node-name($n)]) + 1, ']') else '/node()', '')"/>
    <svrl:text>
      <xsl:apply-templates mode="message"/>
    </svrl:text>
  </xsl:template>

  <xsl:template match="text()" mode="message">
    <axsl:text><xsl:value-of select="."/></axsl:text>
  </xsl:template>
  <xsl:template match="sch:name" mode="message">
    <axsl:value-of select="name({(@path, '.')[1]})"/>
  </xsl:template>
  <xsl:template match="sch:value-of" mode="message">
    <axsl:value-of select="{@select}"/>
  </xsl:template>
  <xsl:template match="*" mode="message">
    <xsl:apply-templates mode="message"/>
  </xsl:template>
</xsl:stylesheet>
