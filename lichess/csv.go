package lichess

import (
	"errors"
	"fmt"
	"strings"
)

// splitCSV splits one CSV line into fields (RFC 4180 quoting; a quoted
// field may not span lines).
func splitCSV(s string) ([]string, error) {
	var fields []string
	for {
		if strings.HasPrefix(s, `"`) {
			var b strings.Builder
			i := 1
			for {
				j := strings.IndexByte(s[i:], '"')
				if j < 0 {
					return nil, errors.New("unclosed quote")
				}
				b.WriteString(s[i : i+j])
				i += j + 1
				if i < len(s) && s[i] == '"' {
					b.WriteByte('"')
					i++
					continue
				}
				break
			}
			fields = append(fields, b.String())
			s = s[i:]
			if s == "" {
				return fields, nil
			}
			if s[0] != ',' {
				return nil, fmt.Errorf("text after a closing quote: %q", truncate(s, 20))
			}
			s = s[1:]
			continue
		}
		j := strings.IndexByte(s, ',')
		if j < 0 {
			return append(fields, s), nil
		}
		fields = append(fields, s[:j])
		s = s[j+1:]
	}
}

// truncate cuts s to n bytes for a message, marking the cut with "...".
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
