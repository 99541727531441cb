package schemadiff

import "strings"

// Type bits. "number" is tInt|tFrac, so integer ⊂ number falls out of set
// arithmetic and [number, integer] equals number.
const (
	tNull uint8 = 1 << iota
	tBool
	tObj
	tArr
	tStr
	tInt
	tFrac

	tNumber = tInt | tFrac
	tAll    = tNull | tBool | tObj | tArr | tStr | tNumber
)

var typeBits = map[string]uint8{
	"null": tNull, "boolean": tBool, "object": tObj, "array": tArr,
	"string": tStr, "integer": tInt, "number": tNumber,
}

// typeNames renders a type set the way a schema author writes it.
func typeNames(t uint8) []string {
	var out []string
	for _, x := range []struct {
		bit  uint8
		name string
	}{{tArr, "array"}, {tBool, "boolean"}, {tInt, "integer"}, {tNull, "null"}, {tNumber, "number"}, {tObj, "object"}, {tStr, "string"}} {
		switch {
		case x.bit == tInt:
			if t&tNumber == tInt {
				out = append(out, x.name)
			}
		case x.bit == tNumber:
			if t&tFrac != 0 {
				out = append(out, x.name)
			}
		case t&x.bit != 0:
			out = append(out, x.name)
		}
	}
	return out
}

func typeString(t uint8) string {
	n := typeNames(t)
	if len(n) == 1 {
		return n[0]
	}
	return "[" + strings.Join(n, ", ") + "]"
}

// valueType is the type bit(s) a JSON value belongs to.
func valueType(v *value) uint8 {
	switch v.kind {
	case vNull:
		return tNull
	case vBool:
		return tBool
	case vStr:
		return tStr
	case vArr:
		return tArr
	case vObj:
		return tObj
	case vNum:
		if isIntegral(v.s) {
			return tInt
		}
		return tFrac
	}
	return 0
}
