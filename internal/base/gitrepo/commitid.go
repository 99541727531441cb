package gitrepo

// IsCommitID reports whether s is a full commit id: 40 (SHA-1) or 64
// (SHA-256) lower-case hex digits.
func IsCommitID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
