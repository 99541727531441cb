package manifest

import "encoding/json"

// SkillEntry reads one entry of a skills/list page as a snapshot holds
// it: its uri, its name (frontmatter.name), and its frontmatter and
// resources in canonical form; the SKILL.md text is not in a listing
// (HasText false). It refuses an entry without a uri.
func SkillEntry(raw json.RawMessage) (Skill, error) { return skillOf(raw) }
