#!/usr/bin/env bash
# Assembles the official e-invoice validation artefacts the tests validate against
# (test/support/einvoice-validation.ts) into $EINVOICE_ARTEFACTS (default test/artefacts/einvoice,
# committed: docs/decisions.md "E-invoice validation artefacts"). The committed folder is at the
# pins below, so this has nothing to do until a pin changes; then it downloads the new releases
# and replaces the folder, to be committed with the pin. Pinned versions:
#   - CEN/TC 434 EN 16931 validation artefacts, ConnectingEurope/eInvoicing-EN16931 tag
#     validation-1.3.16: CII D16B XSD (uncoupled code lists), the compiled Schematron
#     EN16931-CII-validation.xslt and EN16931-UBL-validation.xslt, the sample invoices the tests read;
#   - OASIS UBL 2.1 (OASIS Standard) XSDs: UBL-Invoice-2.1.xsd, UBL-CreditNote-2.1.xsd + xsd/common;
#   - KoSIT xrechnung-schematron v2.5.0 (XRechnung 3.0.x; its build names it 3.0.2).
# Sources: the folder itself when it is already assembled at these versions (nothing to do);
# otherwise the official releases, downloaded with curl: the EN16931 tag's archive from GitHub,
# OASIS's UBL-2.1.zip, and KoSIT's release zip (its compiled XSLT). Only released artefacts are
# used as published: nothing is built from sources here.
# Needs: curl, unzip, tar.
# Prints what it assembled (the MANIFEST). Exit status 0 only when everything is in place.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

dest=${EINVOICE_ARTEFACTS:-$root/test/artefacts/einvoice}

en16931_tag=validation-1.3.16
en16931_commit=b6c9e06a59812fb1a83585da40923b3678a649ad
en16931_url=https://github.com/ConnectingEurope/eInvoicing-EN16931/archive/refs/tags/$en16931_tag.tar.gz

ubl_url=https://docs.oasis-open.org/ubl/os-UBL-2.1/UBL-2.1.zip

xrechnung_tag=v2.5.0
xrechnung_commit=c4eb3dae54d65d60875a85c392122b5721a1108d
xrechnung_version=3.0.2
xrechnung_url=https://github.com/itplr-kosit/xrechnung-schematron/releases/download/$xrechnung_tag/xrechnung-$xrechnung_version-schematron-${xrechnung_tag#v}.zip

examples="cii/CII_example1.xml cii/XRechnung-O.xml ubl/ubl-tc434-example1.xml ubl/ubl-tc434-creditnote1.xml"

pin="en16931=$en16931_tag ubl=2.1 xrechnung-schematron=$xrechnung_tag"

if [ -f "$dest/VERSION" ] && [ "$(cat "$dest/VERSION")" = "$pin" ]; then
  echo "e-invoice artefacts: already assembled in $dest"
  cat "$dest/MANIFEST"
  exit 0
fi
if [ -e "$dest" ] && [ ! -f "$dest/VERSION" ]; then
  echo "e-invoice artefacts: $dest exists but was not assembled by this script (no VERSION); remove it or point EINVOICE_ARTEFACTS elsewhere" >&2
  exit 1
fi


work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$work/out
mkdir -p "$out/cii" "$out/ubl" "$out/examples" "$out/xrechnung/cii" "$out/xrechnung/ubl"
manifest=$out/MANIFEST
{
  echo "E-invoice validation artefacts (scripts/einvoice-artefacts.sh), assembled $(date -u +%Y-%m-%dT%H:%MZ)"
} >"$manifest"

download() { # url file
  echo "downloading $1" >&2
  curl --fail --location --silent --show-error --retry 3 --connect-timeout 20 -o "$2" "$1"
}

# --- EN 16931 (CEN) -------------------------------------------------------------------
en=$work/en16931
mkdir -p "$en"
cii_schema="cii/schema/D16B SCRDM (Subset)/uncoupled clm/CII/uncefact"
download "$en16931_url" "$work/en16931.tar.gz"
tar xzf "$work/en16931.tar.gz" -C "$en"
en=$(find "$en" -mindepth 1 -maxdepth 1 -type d | head -n 1)
en_from="$en16931_url"
[ -f "$en/$cii_schema/data/standard/CrossIndustryInvoice_100pD16B.xsd" ] \
  || { echo "e-invoice artefacts: the CII XSD is missing from the EN16931 sources" >&2; exit 1; }
mkdir -p "$out/cii/xsd"
cp -R "$en/$cii_schema" "$out/cii/xsd/"
cp "$en/cii/xslt/EN16931-CII-validation.xslt" "$out/cii/"
cp "$en/ubl/xslt/EN16931-UBL-validation.xslt" "$out/ubl/"
mkdir -p "$out/examples/cii" "$out/examples/ubl"
# Only the samples the tests read (test/einvoice-validation-harness.test.ts): the folder is committed.
for sample in $examples; do cp "$en/${sample%%/*}/examples/${sample#*/}" "$out/examples/${sample%%/*}/"; done
cp "$en/LICENSE.txt" "$out/LICENSE-EN16931.txt"
echo "EN 16931 validation artefacts $en16931_tag (commit $en16931_commit) from $en_from:" >>"$manifest"
echo "  cii/xsd/uncefact/data/standard/CrossIndustryInvoice_100pD16B.xsd (D16B SCRDM subset, uncoupled code lists)" >>"$manifest"
echo "  cii/EN16931-CII-validation.xslt, ubl/EN16931-UBL-validation.xslt ($(grep -o 'Schematron version [0-9.]*' "$out/cii/EN16931-CII-validation.xslt" | head -n 1))" >>"$manifest"
echo "  examples/cii ($(ls "$out/examples/cii" | wc -l) files), examples/ubl ($(ls "$out/examples/ubl" | wc -l) files)" >>"$manifest"

# --- UBL 2.1 (OASIS) ------------------------------------------------------------------
download "$ubl_url" "$work/UBL-2.1.zip"
mkdir -p "$work/ubl"
unzip -q "$work/UBL-2.1.zip" -d "$work/ubl"
invoice_xsd=$(find "$work/ubl" -path '*/xsd/maindoc/UBL-Invoice-2.1.xsd' | head -n 1)
[ -n "$invoice_xsd" ] || { echo "e-invoice artefacts: UBL-Invoice-2.1.xsd not found in UBL-2.1.zip" >&2; exit 1; }
ubl_xsd=$(dirname "$(dirname "$invoice_xsd")")
ubl_from="$ubl_url"
mkdir -p "$out/ubl/xsd/maindoc"
cp -R "$ubl_xsd/common" "$out/ubl/xsd/"
cp "$ubl_xsd/maindoc/UBL-Invoice-2.1.xsd" "$ubl_xsd/maindoc/UBL-CreditNote-2.1.xsd" "$out/ubl/xsd/maindoc/"
echo "OASIS UBL 2.1 XSD from $ubl_from:" >>"$manifest"
echo "  ubl/xsd/maindoc/UBL-Invoice-2.1.xsd, UBL-CreditNote-2.1.xsd, ubl/xsd/common ($(ls "$out/ubl/xsd/common" | wc -l) files)" >>"$manifest"

# --- XRechnung (KoSIT) ----------------------------------------------------------------
download "$xrechnung_url" "$work/xrechnung.zip"
mkdir -p "$work/xrechnung"
unzip -q "$work/xrechnung.zip" -d "$work/xrechnung"
for syntax in cii ubl; do
  upper=$(echo "$syntax" | tr '[:lower:]' '[:upper:]')
  xsl=$(find "$work/xrechnung" -name "XRechnung-$upper-validation.xsl" | head -n 1)
  [ -n "$xsl" ] || { echo "e-invoice artefacts: XRechnung-$upper-validation.xsl not found in $xrechnung_url" >&2; exit 1; }
  cp "$xsl" "$out/xrechnung/$syntax/"
done
licence=$(find "$work/xrechnung" -name LICENSE | head -n 1)
if [ -n "$licence" ]; then cp "$licence" "$out/LICENSE-XRechnung.txt"; fi
echo "XRechnung Schematron $xrechnung_tag (XRechnung $xrechnung_version), the release's compiled XSLT from $xrechnung_url:" >>"$manifest"
echo "  xrechnung/cii/XRechnung-CII-validation.xsl, xrechnung/ubl/XRechnung-UBL-validation.xsl" >>"$manifest"
echo "release" >"$out/xrechnung/ORIGIN"

echo "$pin" >"$out/VERSION"
mkdir -p "$(dirname "$dest")"
rm -rf "$dest"
mv "$out" "$dest"
echo "e-invoice artefacts: assembled in $dest"
cat "$dest/MANIFEST"
