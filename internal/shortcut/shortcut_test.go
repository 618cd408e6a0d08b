package shortcut

import "testing"

func TestParseAndOff(t *testing.T) {
	a := Register("alpha-test", "beta-test", "gamma-test")
	b := Register("delta-test")
	cases := []struct {
		list    string
		want    Set
		wantErr bool
	}{
		{"", 0, false},
		{"alpha-test", 1, false},
		{"gamma-test, alpha-test", 5, false},
		{"all", 7, false},
		{"delta-test", 0, true},
		{"nonsense", 0, true},
	}
	for _, c := range cases {
		got, err := a.Parse(c.list)
		if (err != nil) != c.wantErr || err == nil && got != c.want {
			t.Errorf("Parse(%q) = %v, %v; want %v, error %v", c.list, got, err, c.want, c.wantErr)
		}
	}
	offs := []struct {
		env   string
		a, b  Set
		named string
	}{
		{"", 0, 0, "none"},
		{"beta-test,delta-test", 2, 1, "[beta-test]"},
		{"all", 7, 1, "all"},
		{"delta-test,unknown-name", 0, 1, "none"},
	}
	for _, c := range offs {
		t.Setenv(OffVar, c.env)
		if got := a.Off(); got != c.a {
			t.Errorf("%s=%q: a.Off() = %v, want %v", OffVar, c.env, got, c.a)
		}
		if got := b.Off(); got != c.b {
			t.Errorf("%s=%q: b.Off() = %v, want %v", OffVar, c.env, got, c.b)
		}
		if got := a.String(a.Off()); got != c.named {
			t.Errorf("%s=%q: String = %q, want %q", OffVar, c.env, got, c.named)
		}
	}
	if a.Len() != 3 || a.Name(1) != "beta-test" || !Set(2).Has(1) || Set(2).Has(0) {
		t.Error("Len, Name or Has is wrong")
	}
}
