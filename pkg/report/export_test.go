package report

// The unexported functions the external tests (package report_test) call.
var (
	CostLine         = costLine
	TextDiff         = textDiff
	Truncate         = truncate
	Uncommented      = uncommented
	WorkflowData     = workflowData
	WorkflowProperty = workflowProperty
)
