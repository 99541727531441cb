package lock

// Shadowing adds to o, the outcome of one server (its Head set, a
// drifted, re-configured or unlocked status), the shadowing findings
// `lock --check` adds: each tool description that now names a tool of
// another server l locks. The guard judges one server at a time with it.
func Shadowing(o *Outcome, l *Lock) {
	shadowing(&Checked{Outcomes: []*Outcome{o}}, l)
}
