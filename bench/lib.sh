# shellcheck shell=bash
# Shared by the bench/*.sh scripts (sourced from the repository root).

# checkout DIR sets src to the tree to build: the working tree, or with
# REV set that commit, unpacked (git archive, the working tree untouched) into DIR/src.
checkout() {
	src=.
	if [ -n "${REV:-}" ]; then
		src=$1/src
		mkdir -p "$src"
		git archive "$REV" | tar -x -C "$src"
	fi
}
