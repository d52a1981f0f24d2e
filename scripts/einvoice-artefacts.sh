#!/usr/bin/env bash
# Assembles the official e-invoice validation artefacts the tests validate against
# (test/support/einvoice-validation.ts), into $EINVOICE_ARTEFACTS (default ./.artefacts/einvoice,
# gitignored: third-party files are never committed; docs/decisions.md "E-invoice validation
# artefacts"). Pinned versions:
#   - CEN/TC 434 EN 16931 validation artefacts, ConnectingEurope/eInvoicing-EN16931 tag
#     validation-1.3.16: CII D16B XSD (uncoupled code lists), the compiled Schematron
#     EN16931-CII-validation.xslt and EN16931-UBL-validation.xslt, the sample invoices;
#   - OASIS UBL 2.1 (OASIS Standard) XSDs: UBL-Invoice-2.1.xsd, UBL-CreditNote-2.1.xsd + xsd/common;
#   - KoSIT xrechnung-schematron v2.5.0 (XRechnung 3.0.x; its build names it 3.0.2).
# Sources, in order, each set on its own:
#   1. the folder itself when it is already assembled at these versions (nothing to do);
#   2. local git copies: EN16931_GIT, UBL_GIT, XRECHNUNG_GIT (bare git dirs; defaults: the
#      session mirrors under /work/.mirror). XRechnung's git holds Schematron SOURCES only; they are
#      compiled here with scripts/schematron-to-xslt.xsl (Saxon-HE), which lacks the PEPPOL-EN16931-R*
#      rules KoSIT's release build merges in from Peppol BIS Billing (MANIFEST says which you have);
#   3. downloads with curl: the EN16931 tag's source archive from GitHub, OASIS's UBL-2.1.zip,
#      and KoSIT's release zip (compiled XSLT, Peppol rules included) from GitHub.
# Needs: git or curl+unzip, tar, java and Saxon-HE (SAXON_JAR, default Debian's libsaxonhe-java).
# Prints what it assembled (the MANIFEST). Exit status 0 only when everything is in place.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

dest=${EINVOICE_ARTEFACTS:-$root/.artefacts/einvoice}
saxon_jar=${SAXON_JAR:-/usr/share/java/Saxon-HE.jar}

en16931_tag=validation-1.3.16
en16931_commit=b6c9e06a59812fb1a83585da40923b3678a649ad
en16931_git=${EN16931_GIT:-/work/.mirror/ConnectingEurope+eInvoicing-EN16931/repo}
en16931_url=https://github.com/ConnectingEurope/eInvoicing-EN16931/archive/refs/tags/$en16931_tag.tar.gz

# The OASIS release package as a git history (kduvekot/ubl-release-package): this commit is
# "Release: UBL 2.1 (OASIS Standard)", the content of OASIS's UBL-2.1.zip.
ubl_commit=69d9f20189fe7fa551dcc59f17d8480e70cda970
ubl_git=${UBL_GIT:-/work/.mirror/kduvekot+ubl-release-package/repo}
ubl_url=https://docs.oasis-open.org/ubl/os-UBL-2.1/UBL-2.1.zip

xrechnung_tag=v2.5.0
xrechnung_commit=c4eb3dae54d65d60875a85c392122b5721a1108d
xrechnung_version=3.0.2
xrechnung_git=${XRECHNUNG_GIT:-/work/.mirror/itplr-kosit+xrechnung-schematron/repo}
xrechnung_url=https://github.com/itplr-kosit/xrechnung-schematron/releases/download/$xrechnung_tag/xrechnung-$xrechnung_version-schematron-${xrechnung_tag#v}.zip

pin="en16931=$en16931_tag ubl=2.1 xrechnung-schematron=$xrechnung_tag compiler=$(sha256sum "$root/scripts/schematron-to-xslt.xsl" | cut -c1-12)"

if [ -f "$dest/VERSION" ] && [ "$(cat "$dest/VERSION")" = "$pin" ]; then
  echo "e-invoice artefacts: already assembled in $dest"
  cat "$dest/MANIFEST"
  exit 0
fi
if [ -e "$dest" ] && [ ! -f "$dest/VERSION" ]; then
  echo "e-invoice artefacts: $dest exists but was not assembled by this script (no VERSION); remove it or point EINVOICE_ARTEFACTS elsewhere" >&2
  exit 1
fi

[ -f "$saxon_jar" ] || { echo "e-invoice artefacts: Saxon-HE not found at $saxon_jar (apt-get install libsaxonhe-java, or set SAXON_JAR)" >&2; exit 1; }
command -v java >/dev/null || { echo "e-invoice artefacts: java not found (apt-get install default-jre-headless)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$work/out
mkdir -p "$out/cii" "$out/ubl" "$out/examples" "$out/xrechnung/cii" "$out/xrechnung/ubl"
manifest=$out/MANIFEST
{
  echo "E-invoice validation artefacts (scripts/einvoice-artefacts.sh), assembled $(date -u +%Y-%m-%dT%H:%MZ)"
} >"$manifest"

# Has this bare git dir got the pinned commit?
has_commit() { [ -d "$1" ] && git --git-dir="$1" cat-file -e "$2^{commit}" 2>/dev/null; }

download() { # url file
  echo "downloading $1" >&2
  curl --fail --location --silent --show-error --retry 3 --connect-timeout 20 -o "$2" "$1"
}

# --- EN 16931 (CEN) -------------------------------------------------------------------
en=$work/en16931
mkdir -p "$en"
cii_schema="cii/schema/D16B SCRDM (Subset)/uncoupled clm/CII/uncefact"
if has_commit "$en16931_git" "$en16931_commit"; then
  git --git-dir="$en16931_git" archive "$en16931_commit" cii/xslt ubl/xslt cii/examples ubl/examples "$cii_schema" LICENSE.txt \
    | tar x -C "$en"
  en_from="git $en16931_git"
else
  download "$en16931_url" "$work/en16931.tar.gz"
  tar xzf "$work/en16931.tar.gz" -C "$en"
  top=$(find "$en" -mindepth 1 -maxdepth 1 -type d | head -n 1)
  en=$top
  en_from="$en16931_url"
fi
[ -f "$en/$cii_schema/data/standard/CrossIndustryInvoice_100pD16B.xsd" ] \
  || { echo "e-invoice artefacts: the CII XSD is missing from the EN16931 sources" >&2; exit 1; }
mkdir -p "$out/cii/xsd"
cp -R "$en/$cii_schema" "$out/cii/xsd/"
cp "$en/cii/xslt/EN16931-CII-validation.xslt" "$out/cii/"
cp "$en/ubl/xslt/EN16931-UBL-validation.xslt" "$out/ubl/"
mkdir -p "$out/examples/cii" "$out/examples/ubl"
cp "$en"/cii/examples/*.xml "$out/examples/cii/"
cp "$en"/ubl/examples/*.xml "$out/examples/ubl/" 2>/dev/null || true
cp "$en"/ubl/examples/*.XML "$out/examples/ubl/" 2>/dev/null || true
cp "$en/LICENSE.txt" "$out/LICENSE-EN16931.txt"
echo "EN 16931 validation artefacts $en16931_tag (commit $en16931_commit) from $en_from:" >>"$manifest"
echo "  cii/xsd/uncefact/data/standard/CrossIndustryInvoice_100pD16B.xsd (D16B SCRDM subset, uncoupled code lists)" >>"$manifest"
echo "  cii/EN16931-CII-validation.xslt, ubl/EN16931-UBL-validation.xslt ($(grep -o 'Schematron version [0-9.]*' "$out/cii/EN16931-CII-validation.xslt" | head -n 1))" >>"$manifest"
echo "  examples/cii ($(ls "$out/examples/cii" | wc -l) files), examples/ubl ($(ls "$out/examples/ubl" | wc -l) files)" >>"$manifest"

# --- UBL 2.1 (OASIS) ------------------------------------------------------------------
if has_commit "$ubl_git" "$ubl_commit"; then
  mkdir -p "$work/ubl"
  # A snapshot that lacks some big blob elsewhere in the tree makes git archive complain (and still
  # succeed); its messages are shown only when the files needed here did not arrive.
  git --git-dir="$ubl_git" archive "$ubl_commit" xsd/common xsd/maindoc/UBL-Invoice-2.1.xsd xsd/maindoc/UBL-CreditNote-2.1.xsd \
    2>"$work/ubl-git.err" | tar x -C "$work/ubl"
  ubl_xsd=$work/ubl/xsd
  [ -f "$ubl_xsd/maindoc/UBL-CreditNote-2.1.xsd" ] && [ -f "$ubl_xsd/common/UBL-CommonAggregateComponents-2.1.xsd" ] \
    || { cat "$work/ubl-git.err" >&2; echo "e-invoice artefacts: the UBL 2.1 XSDs are missing from $ubl_git" >&2; exit 1; }
  ubl_from="git $ubl_git (commit $ubl_commit)"
else
  download "$ubl_url" "$work/UBL-2.1.zip"
  mkdir -p "$work/ubl"
  unzip -q "$work/UBL-2.1.zip" -d "$work/ubl"
  invoice_xsd=$(find "$work/ubl" -path '*/xsd/maindoc/UBL-Invoice-2.1.xsd' | head -n 1)
  [ -n "$invoice_xsd" ] || { echo "e-invoice artefacts: UBL-Invoice-2.1.xsd not found in UBL-2.1.zip" >&2; exit 1; }
  ubl_xsd=$(dirname "$(dirname "$invoice_xsd")")
  ubl_from="$ubl_url"
fi
mkdir -p "$out/ubl/xsd/maindoc"
cp -R "$ubl_xsd/common" "$out/ubl/xsd/"
cp "$ubl_xsd/maindoc/UBL-Invoice-2.1.xsd" "$ubl_xsd/maindoc/UBL-CreditNote-2.1.xsd" "$out/ubl/xsd/maindoc/"
echo "OASIS UBL 2.1 XSD from $ubl_from:" >>"$manifest"
echo "  ubl/xsd/maindoc/UBL-Invoice-2.1.xsd, UBL-CreditNote-2.1.xsd, ubl/xsd/common ($(ls "$out/ubl/xsd/common" | wc -l) files)" >>"$manifest"

# --- XRechnung (KoSIT) ----------------------------------------------------------------
if has_commit "$xrechnung_git" "$xrechnung_commit"; then
  xr=$work/xrechnung
  mkdir -p "$xr"
  git --git-dir="$xrechnung_git" archive "$xrechnung_commit" src/validation/schematron LICENSE | tar x -C "$xr"
  for syntax in cii ubl; do
    upper=$(echo "$syntax" | tr '[:lower:]' '[:upper:]')
    sch=$xr/src/validation/schematron/$syntax/XRechnung-$upper-validation.sch
    # The release build fills in these tokens (build.xml's filtering copy); only the title uses them.
    sed -i -e "s/@xr-schematron.version.full@/${xrechnung_tag#v}/g" -e "s/@xrechnung.version@/$xrechnung_version/g" "$sch"
    java -cp "$saxon_jar" net.sf.saxon.Transform -s:"$sch" -xsl:"$root/scripts/schematron-to-xslt.xsl" \
      -o:"$out/xrechnung/$syntax/XRechnung-$upper-validation.xsl"
  done
  cp "$xr/LICENSE" "$out/LICENSE-XRechnung.txt"
  echo "XRechnung Schematron $xrechnung_tag (commit $xrechnung_commit, XRechnung $xrechnung_version) SOURCES from git $xrechnung_git," >>"$manifest"
  echo "  compiled by scripts/schematron-to-xslt.xsl: xrechnung/cii/XRechnung-CII-validation.xsl, xrechnung/ubl/XRechnung-UBL-validation.xsl" >>"$manifest"
  echo "  NOTE: without the PEPPOL-EN16931-R* rules that KoSIT's release build merges in (the Peppol BIS sources are not in that git)" >>"$manifest"
  echo "source" >"$out/xrechnung/ORIGIN"
else
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
  echo "  xrechnung/cii/XRechnung-CII-validation.xsl, xrechnung/ubl/XRechnung-UBL-validation.xsl (Peppol rules included)" >>"$manifest"
  echo "release" >"$out/xrechnung/ORIGIN"
fi

echo "$pin" >"$out/VERSION"
mkdir -p "$(dirname "$dest")"
rm -rf "$dest"
mv "$out" "$dest"
echo "e-invoice artefacts: assembled in $dest"
cat "$dest/MANIFEST"
