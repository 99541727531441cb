#!/usr/bin/env bash
# render-comment.sh: see a markdown report (a golden PR comment or job
# summary) the way a reviewer sees it on GitHub, as a PNG.
#
# It renders the markdown with cmark-gfm and the extensions GitHub enables
# (table, strikethrough, autolink, tagfilter; raw HTML allowed, as GitHub
# allows the <details>, <summary>, <code>, <sub> and <br> we write), wraps it
# in <article class="markdown-body"> styled by the github-markdown-css
# package's stylesheet, and screenshots the page with headless Chromium at
# the width of a pull request's conversation column.
#
# Usage:
#   scripts/render-comment.sh -c CSS -o OUTDIR [-w WIDTH] [-H HEIGHT] [--open] FILE.md...
#
#   -c CSS     github-markdown-light.css (or github-markdown.css) from the
#              github-markdown-css npm package; not part of this repository
#   -o OUTDIR  where FILE.html and FILE.png are written
#   -w, -H     window size (default 1012x2400)
#   --open     expand every <details>, to check what the folds hold
#
# Needs cmark-gfm and chromium on PATH. Nothing is written to the
# repository; nothing is fetched.
set -euo pipefail

css="" out="" width=1012 height=2400 open=0
files=()
while [ $# -gt 0 ]; do
	case "$1" in
	-c) css="$2"; shift 2 ;;
	-o) out="$2"; shift 2 ;;
	-w) width="$2"; shift 2 ;;
	-H) height="$2"; shift 2 ;;
	--open) open=1; shift ;;
	-h|--help) sed -n '2,24p' "$0"; exit 0 ;;
	*) files+=("$1"); shift ;;
	esac
done
if [ -z "$css" ] || [ -z "$out" ] || [ ${#files[@]} -eq 0 ]; then
	echo "usage: $0 -c CSS -o OUTDIR [-w WIDTH] [-H HEIGHT] [--open] FILE.md..." >&2
	exit 2
fi
[ -r "$css" ] || { echo "render-comment: cannot read stylesheet $css" >&2; exit 2; }
for tool in cmark-gfm chromium; do
	command -v "$tool" >/dev/null || { echo "render-comment: $tool is not on PATH" >&2; exit 2; }
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
cp "$css" "$out/github-markdown.css"

for md in "${files[@]}"; do
	name=$(basename "$md" .md)
	html="$out/$name.html"
	body=$(if [ "$open" = 1 ]; then sed 's/<details>/<details open>/g' "$md"; else cat "$md"; fi |
		cmark-gfm --unsafe --extension table --extension strikethrough --extension autolink --extension tagfilter)
	cat >"$html" <<HTML
<!DOCTYPE html>
<html><head><meta charset="utf-8">
<link rel="stylesheet" href="github-markdown.css">
<style>
  body { margin: 0; background: #fff; }
  .markdown-body { box-sizing: border-box; max-width: 980px; margin: 0 auto; padding: 16px; }
</style></head>
<body><article class="markdown-body">
$body
</article></body></html>
HTML
	profile=$(mktemp -d)
	chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" --window-size="$width,$height" \
		--screenshot="$out/$name.png" "file://$html" >/dev/null 2>&1
	rm -rf "$profile"
	echo "$out/$name.png"
done
