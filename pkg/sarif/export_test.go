package sarif

// The unexported functions the external tests (package sarif_test) call.
var (
	SecuritySeverity = securitySeverity
)
