package cache

import (
	"reflect"
	"sort"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// recordingInformer is a SharedIndexInformer whose only working parts are
// an Indexer and the handler registration the typed wrapper uses.
type recordingInformer struct {
	SharedIndexInformer
	indexer Indexer
	handler ResourceEventHandler
	options HandlerOptions
}

func (r *recordingInformer) GetIndexer() Indexer { return r.indexer }
func (r *recordingInformer) AddEventHandlerWithOptions(h ResourceEventHandler, o HandlerOptions) (ResourceEventHandlerRegistration, error) {
	r.handler, r.options = h, o
	return nil, nil
}

type object = *metav1.PartialObjectMetadata

// typedCalls records what a typed handler receives, one line per call.
type typedCalls []string

func (c *typedCalls) funcs() TypedResourceEventHandlerFuncs[object] {
	name := func(o object) string {
		if o == nil {
			return "<nil>"
		}
		return o.Namespace + "/" + o.Name + "@" + o.ResourceVersion
	}
	return TypedResourceEventHandlerFuncs[object]{
		AddFunc: func(o object, initial bool) {
			*c = append(*c, "add "+name(o)+map[bool]string{true: " initial", false: ""}[initial])
		},
		UpdateFunc: func(old, o object) { *c = append(*c, "update "+name(old)+" -> "+name(o)) },
		DeleteFunc: func(o object, unknown bool) {
			*c = append(*c, "delete "+name(o)+map[bool]string{true: " final-state-unknown", false: ""}[unknown])
		},
		ResyncFunc: func(o object) { *c = append(*c, "resync "+name(o)) },
	}
}

func TestTypedHandlerUnwrapsTombstonesAndTypes(t *testing.T) {
	a, a2 := testObject("ns", "a", "1"), testObject("ns", "a", "2")
	tests := []struct {
		name    string
		deliver func(h ResourceEventHandler)
		want    typedCalls
	}{
		{"add", func(h ResourceEventHandler) { h.OnAdd(a, true) }, typedCalls{"add ns/a@1 initial"}},
		{"update", func(h ResourceEventHandler) { h.OnUpdate(a, a2) }, typedCalls{"update ns/a@1 -> ns/a@2"}},
		{"update without old state (LatestOnly)", func(h ResourceEventHandler) { h.OnUpdate(nil, a2) }, typedCalls{"update <nil> -> ns/a@2"}},
		{"resync", func(h ResourceEventHandler) { h.(ResyncHandler).OnResync(a) }, typedCalls{"resync ns/a@1"}},
		{"observed delete", func(h ResourceEventHandler) { h.OnDelete(a) }, typedCalls{"delete ns/a@1"}},
		{"tombstone delete", func(h ResourceEventHandler) { h.OnDelete(DeletedFinalStateUnknown{Key: "ns/a", Obj: a}) }, typedCalls{"delete ns/a@1 final-state-unknown"}},
		{"object of another type is reported, not delivered", func(h ResourceEventHandler) { h.OnAdd(&otherObject{}, false) }, nil},
		{"tombstone of another type is reported, not delivered", func(h ResourceEventHandler) { h.OnDelete(DeletedFinalStateUnknown{Obj: &otherObject{}}) }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got typedCalls
			inf := &recordingInformer{}
			typed := NewTypedSharedIndexInformer[object](inf)
			if _, err := typed.AddEventHandler(got.funcs(), HandlerOptions{Name: "typed", LatestOnly: true}); err != nil {
				t.Fatal(err)
			}
			if inf.options.Name != "typed" || !inf.options.LatestOnly {
				t.Fatalf("options not passed on: %+v", inf.options)
			}
			tt.deliver(inf.handler)
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("calls = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTypedResyncFallsBackToUpdate(t *testing.T) {
	var got []string
	h := TypedResourceEventHandlerFuncs[object]{UpdateFunc: func(old, o object) { got = append(got, old.Name+"->"+o.Name) }}
	h.OnResync(testObject("ns", "a", "1"))
	if !reflect.DeepEqual(got, []string{"a->a"}) {
		t.Fatalf("resync without ResyncFunc delivered %q, want an update of the object to itself", got)
	}
}

func TestTypedReadsSkipObjectsOfAnotherType(t *testing.T) {
	idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	for _, o := range []any{testObject("a", "x", "1"), testObject("b", "y", "1"), &otherObject{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "odd"}}} {
		if err := idx.Add(o); err != nil {
			t.Fatal(err)
		}
	}
	typed := NewTypedSharedIndexInformer[object](&recordingInformer{indexer: idx})

	var names []string
	for _, o := range typed.List() {
		names = append(names, o.Namespace+"/"+o.Name)
	}
	sort.Strings(names)
	if !reflect.DeepEqual(names, []string{"a/x", "b/y"}) {
		t.Fatalf("List = %v", names)
	}
	inA, err := typed.ByIndex(NamespaceIndex, "a")
	if err != nil || len(inA) != 1 || inA[0].Name != "x" {
		t.Fatalf("ByIndex(namespace, a) = %v, %v", inA, err)
	}
	if o, ok, err := typed.GetByKey("b/y"); err != nil || !ok || o.Name != "y" {
		t.Fatalf("GetByKey(b/y) = %v, %v, %v", o, ok, err)
	}
	if _, ok, err := typed.GetByKey("a/odd"); ok || err == nil {
		t.Fatalf("GetByKey of an object of another type = found %v, err %v; want an error", ok, err)
	}
	if _, ok, err := typed.GetByKey("a/missing"); ok || err != nil {
		t.Fatalf("GetByKey(a/missing) = %v, %v", ok, err)
	}
	if _, err := typed.ByIndex("no-such-index", "a"); err == nil {
		t.Fatal("ByIndex of an unknown index succeeded")
	}
}
