package measure

import (
	"context"
	"testing"

	"github.com/informer-gen/informer-gen/bench/internal/source"
	"github.com/informer-gen/informer-gen/bench/internal/subject"
)

// SyncedLister runs an informer over in.List until it has synced and
// returns its lister and the function that stops the informer.
func SyncedLister(ctx context.Context, in *Input, subj subject.Subject) (subject.Lister, func(), error) {
	inf := subj.New(source.New(in.List, nil))
	r := start(ctx, inf)
	if err := waitFor(ctx, "HasSynced", inf.HasSynced); err != nil {
		r.stop()
		return nil, nil, err
	}
	return inf.Lister(), r.stop, nil
}

// ListerList benchmarks listing one namespace (rotating over all of them)
// through the namespace index.
func ListerList(b *testing.B, in *Input, l subject.Lister) {
	want := in.Config.Objects / in.Config.Namespaces
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		out, err := l.List(in.Namespaces[i%len(in.Namespaces)])
		if err != nil {
			b.Fatal(err)
		}
		if len(out) < want {
			b.Fatalf("listed %d objects, want at least %d", len(out), want)
		}
		i++
	}
}

// ListerGet benchmarks getting one object (rotating over all of them).
func ListerGet(b *testing.B, in *Input, l subject.Lister) {
	b.ReportAllocs()
	n := len(in.Names)
	i := 0
	for b.Loop() {
		k := i % n
		obj, err := l.Get(in.Namespaces[k%len(in.Namespaces)], in.Names[k])
		if err != nil {
			b.Fatal(err)
		}
		if obj.Name != in.Names[k] {
			b.Fatalf("got %s, want %s", obj.Name, in.Names[k])
		}
		i++
	}
}
