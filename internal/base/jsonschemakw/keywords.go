package jsonschemakw

// Form is how a keyword holds its subschemas.
type Form uint8

const (
	// NoSchema: the keyword's value is not a subschema.
	NoSchema Form = iota
	// One: the value is a subschema.
	One
	// List: the value is an array of subschemas.
	List
	// OneOrList: a subschema, or an array of them (items before 2020-12).
	OneOrList
	// Map: the value is an object of name → subschema (for dependencies,
	// draft-07, a member may also be an array of property names).
	Map
)

// Keyword describes one keyword that holds subschemas.
type Keyword struct {
	Name string
	Form Form
	// InPlace: the subschemas apply to the same instance as the schema
	// holding them (composition and conditionals), not to a part of it.
	InPlace bool
	// Definitions: the subschemas are only a place to keep definitions
	// for references, not applied to anything.
	Definitions bool
}

// Subschemas lists every keyword whose value holds subschemas, in the
// order walkers visit them.
var Subschemas = []Keyword{
	{Name: "properties", Form: Map},
	{Name: "patternProperties", Form: Map},
	{Name: "additionalProperties", Form: One},
	{Name: "propertyNames", Form: One},
	{Name: "unevaluatedProperties", Form: One},
	{Name: "dependentSchemas", Form: Map, InPlace: true},
	{Name: "dependencies", Form: Map, InPlace: true},
	{Name: "items", Form: OneOrList},
	{Name: "prefixItems", Form: List},
	{Name: "additionalItems", Form: One},
	{Name: "unevaluatedItems", Form: One},
	{Name: "contains", Form: One},
	{Name: "allOf", Form: List, InPlace: true},
	{Name: "anyOf", Form: List, InPlace: true},
	{Name: "oneOf", Form: List, InPlace: true},
	{Name: "not", Form: One, InPlace: true},
	{Name: "if", Form: One, InPlace: true},
	{Name: "then", Form: One, InPlace: true},
	{Name: "else", Form: One, InPlace: true},
	{Name: "contentSchema", Form: One},
	{Name: "$defs", Form: Map, Definitions: true},
	{Name: "definitions", Form: Map, Definitions: true},
}

var byName = func() map[string]Keyword {
	m := make(map[string]Keyword, len(Subschemas))
	for _, k := range Subschemas {
		m[k.Name] = k
	}
	return m
}()

// FormOf returns how the keyword holds subschemas (NoSchema for any other
// keyword).
func FormOf(name string) Form { return byName[name].Form }

// HoldsOne reports whether the keyword's value may be a single subschema.
func HoldsOne(name string) bool {
	f := FormOf(name)
	return f == One || f == OneOrList
}

// HoldsList reports whether the keyword's value may be an array of
// subschemas.
func HoldsList(name string) bool {
	f := FormOf(name)
	return f == List || f == OneOrList
}

// HoldsMap reports whether the keyword's value is an object of subschemas.
func HoldsMap(name string) bool { return FormOf(name) == Map }

// Applicator reports whether the keyword applies subschemas to the
// instance (every subschema keyword except the definitions).
func Applicator(name string) bool {
	k, ok := byName[name]
	return ok && !k.Definitions
}

// Doc reports whether the keyword is an annotation meant for people and
// models, not validation.
func Doc(name string) bool {
	switch name {
	case "title", "description", "examples", "$comment", "markdownDescription":
		return true
	}
	return false
}

// Assertion reports whether the keyword constrains the instance by
// itself, without subschemas (type, bounds, formats, ...).
func Assertion(name string) bool {
	switch name {
	case "type", "enum", "const", "multipleOf", "maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum",
		"maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains",
		"maxProperties", "minProperties", "required", "dependentRequired", "format", "contentEncoding",
		"contentMediaType":
		return true
	}
	return false
}

// Refers lists the keywords that refer to another schema.
var Refers = []string{"$ref", "$dynamicRef", "$recursiveRef"}

// Reference reports whether the keyword identifies a schema or refers to
// another one.
func Reference(name string) bool {
	switch name {
	case "$ref", "$dynamicRef", "$recursiveRef", "$id", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$vocabulary":
		return true
	}
	return false
}
