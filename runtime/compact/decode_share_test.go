package compact

import (
	"testing"
	"unsafe"
)

// decodedArgs shares args as a decoder does (ShareDecoded, as part of a
// decoded object of its own), memoizing it by raw when it is canonical.
func decodedArgs(t *Table, raw string, args ...string) []string {
	p := append([]string(nil), args...)
	if ShareDecoded(t, &p, stringSlice, DecodedObject()) {
		Memoize(t, []byte(raw), p)
	}
	return p
}

// A value shared as it is decoded is the table's canonical copy from its
// second sighting on, as a walk's; the memo then hands it out for exactly
// the same bytes of the same type, and stops when the Guard finds a
// canonical copy mutated.
func TestMemoHandsOutCanonicalCopiesUntilTheGuardFindsAMutation(t *testing.T) {
	table, logs := NewTable(), &logLines{}
	const raw = `["--v=2","--port=80"]`
	first := decodedArgs(table, raw, "--v=2", "--port=80")
	if _, ok := Memoized[[]string](table, []byte(raw)); ok {
		t.Fatal("a value seen once is memoized: it is no canonical copy yet")
	}
	second := decodedArgs(table, raw, "--v=2", "--port=80")
	third := decodedArgs(table, raw, "--v=2", "--port=80")
	if unsafe.SliceData(first) == unsafe.SliceData(second) || unsafe.SliceData(second) != unsafe.SliceData(third) {
		t.Fatalf("sharing: first %p, second %p, third %p; want the second and third shared, the first its own",
			unsafe.SliceData(first), unsafe.SliceData(second), unsafe.SliceData(third))
	}
	got, ok := Memoized[[]string](table, []byte(raw))
	if !ok || unsafe.SliceData(got) != unsafe.SliceData(second) {
		t.Fatalf("memo of the canonical copy: %v %v", got, ok)
	}
	for _, miss := range []struct {
		name string
		ok   func() bool
	}{
		{"other bytes", func() bool { _, ok := Memoized[[]string](table, []byte(`["--v=2", "--port=80"]`)); return ok }},
		{"other type", func() bool { _, ok := Memoized[[]byte](table, []byte(raw)); return ok }},
	} {
		if miss.ok() {
			t.Errorf("%s: memoized", miss.name)
		}
	}

	g := testGuard(table, logs)
	g.Round()
	second[0] = "--v=9" // a cached object's shared part mutated
	g.Round()
	if g.Stats().Mutations != 1 {
		t.Fatalf("guard stats %+v, want one mutation", g.Stats())
	}
	if _, ok := Memoized[[]string](table, []byte(raw)); ok {
		t.Fatal("the memo hands out a copy stored before the Guard removed a mutated one")
	}
}
