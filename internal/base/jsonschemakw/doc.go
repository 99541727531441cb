// Package jsonschemakw is the project's one list of JSON Schema keywords:
// which keywords hold subschemas and in what form, which ones apply to the
// same instance, which are assertions and which are documentation. The
// snapshot's fingerprints, the lint, the spec gate's schema check and the
// schema comparison all walk schemas with it, so that a keyword added for
// one of them is seen by every other.
package jsonschemakw
