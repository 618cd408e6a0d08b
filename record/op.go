package record

import "strings"

// Op is one EPD operation: its opcode and operands, with quotes removed and
// escapes resolved.
type Op struct {
	Code string
	Args []string
}

// String writes the operation as EPD does, without the semicolon: the
// opcode, then each operand, quoted when it must be (comments and ids
// always are).
func (op Op) String() string {
	var b strings.Builder
	b.WriteString(op.Code)
	for _, a := range op.Args {
		b.WriteByte(' ')
		if a == "" || strings.ContainsAny(a, " ;\"\t\\") || IsComment(op.Code) || op.Code == "id" {
			b.WriteString(epdQuote(a))
		} else {
			b.WriteString(a)
		}
	}
	return b.String()
}

// IsComment reports whether an EPD opcode is one of the comments c0 to c9.
func IsComment(code string) bool {
	return len(code) == 2 && code[0] == 'c' && code[1] >= '0' && code[1] <= '9'
}

// epdQuote quotes an EPD string operand: only '"' and '\\' are escaped,
// as EPD readers (ours among them) expect, so that every byte of the text,
// valid UTF-8 or not, reads back the same. Line breaks, which cannot
// occur in a string read from one line, become spaces.
func epdQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n', '\r':
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
