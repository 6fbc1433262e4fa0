package cache

import (
	"reflect"
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

func objName(o object) string {
	if o == nil {
		return "<nil>"
	}
	return o.Namespace + "/" + o.Name + "@" + o.ResourceVersion
}

func (c *typedCalls) deleted(d DeletedObject[object]) {
	line := "delete " + objName(d.OptionalObj) + " key=" + d.GetKey()
	if d.FinalStateUnknown != nil {
		line += " final-state-unknown"
	}
	*c = append(*c, line)
}

func (c *typedCalls) funcs() TypedResourceEventHandlerDetailedFuncs[object] {
	return TypedResourceEventHandlerDetailedFuncs[object]{
		AddFunc: func(o object, initial bool) {
			*c = append(*c, "add "+objName(o)+map[bool]string{true: " initial", false: ""}[initial])
		},
		UpdateFunc: func(old, o object) { *c = append(*c, "update "+objName(old)+" -> "+objName(o)) },
		DeleteFunc: c.deleted,
		ResyncFunc: func(o object) { *c = append(*c, "resync "+objName(o)) },
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
		{"observed delete", func(h ResourceEventHandler) { h.OnDelete(a) }, typedCalls{"delete ns/a@1 key=ns/a"}},
		{"tombstone delete", func(h ResourceEventHandler) { h.OnDelete(DeletedFinalStateUnknown{Key: "ns/a", Obj: a}) }, typedCalls{"delete ns/a@1 key=ns/a final-state-unknown"}},
		{"tombstone without object", func(h ResourceEventHandler) { h.OnDelete(DeletedFinalStateUnknown{Key: "ns/gone"}) }, typedCalls{"delete <nil> key=ns/gone final-state-unknown"}},
		{"object of another type is reported, not delivered", func(h ResourceEventHandler) { h.OnAdd(&otherObject{}, false) }, nil},
		{"tombstone of another type is reported, not delivered", func(h ResourceEventHandler) { h.OnDelete(DeletedFinalStateUnknown{Obj: &otherObject{}}) }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got typedCalls
			inf := &recordingInformer{}
			typed := NewTypedSharedIndexInformer[object](inf)
			if _, err := typed.AddTypedEventHandler(got.funcs(), HandlerOptions{Name: "typed", LatestOnly: true}); err != nil {
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

func TestAddTypedEventHandlerRejectsSeveralOptions(t *testing.T) {
	typed := NewTypedSharedIndexInformer[object](&recordingInformer{})
	if _, err := typed.AddTypedEventHandler(TypedResourceEventHandlerFuncs[object]{}, HandlerOptions{}, HandlerOptions{}); err == nil {
		t.Fatal("two HandlerOptions accepted")
	}
}

// plainTyped implements only TypedResourceEventHandler, not
// TypedResyncHandler.
type plainTyped struct{ calls *typedCalls }

func (p plainTyped) OnAdd(o object, _ bool) { *p.calls = append(*p.calls, "add "+objName(o)) }
func (p plainTyped) OnUpdate(old, o object) {
	*p.calls = append(*p.calls, "update "+objName(old)+" -> "+objName(o))
}
func (p plainTyped) OnDelete(d DeletedObject[object]) { p.calls.deleted(d) }

func TestTypedResyncFallsBackToUpdate(t *testing.T) {
	a := testObject("ns", "a", "1")
	tests := []struct {
		name    string
		handler func(c *typedCalls) TypedResourceEventHandler[object]
	}{
		{"funcs without ResyncFunc", func(c *typedCalls) TypedResourceEventHandler[object] {
			return TypedResourceEventHandlerFuncs[object]{UpdateFunc: func(old, o object) { plainTyped{c}.OnUpdate(old, o) }}
		}},
		{"detailed funcs without ResyncFunc", func(c *typedCalls) TypedResourceEventHandler[object] {
			return TypedResourceEventHandlerDetailedFuncs[object]{UpdateFunc: func(old, o object) { plainTyped{c}.OnUpdate(old, o) }}
		}},
		{"handler without OnResync", func(c *typedCalls) TypedResourceEventHandler[object] { return plainTyped{c} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got typedCalls
			inf := &recordingInformer{}
			if _, err := NewTypedSharedIndexInformer[object](inf).AddTypedEventHandler(tt.handler(&got)); err != nil {
				t.Fatal(err)
			}
			inf.handler.(ResyncHandler).OnResync(a)
			if want := (typedCalls{"update ns/a@1 -> ns/a@1"}); !reflect.DeepEqual(got, want) {
				t.Fatalf("resync delivered %q, want %q", got, want)
			}
		})
	}
}

func TestTypedIndexerSkipsObjectsOfAnotherType(t *testing.T) {
	idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	for _, o := range []any{testObject("a", "x", "1"), testObject("b", "y", "1"), &otherObject{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "odd"}}} {
		if err := idx.Add(o); err != nil {
			t.Fatal(err)
		}
	}
	typed := NewTypedSharedIndexInformer[object](&recordingInformer{indexer: idx}).GetTypedIndexer()

	inA, err := typed.ByTypedIndex(NamespaceIndex, "a")
	if err != nil || len(inA) != 1 || inA[0].Name != "x" {
		t.Fatalf("ByTypedIndex(namespace, a) = %v, %v", inA, err)
	}
	same, err := typed.TypedIndex(NamespaceIndex, testObject("b", "z", "1"))
	if err != nil || len(same) != 1 || same[0].Name != "y" {
		t.Fatalf("TypedIndex(namespace, b/z) = %v, %v", same, err)
	}
	if _, err := typed.ByTypedIndex("no-such-index", "a"); err == nil {
		t.Fatal("ByTypedIndex of an unknown index succeeded")
	}
}

func TestTypedIndexersIndexTypedObjectsAndRejectOthers(t *testing.T) {
	idx := NewTypedSharedIndexInformer[object](&recordingInformer{indexer: NewIndexer(MetaNamespaceKeyFunc, Indexers{})}).GetTypedIndexer()
	byRV := TypedIndexers[object]{"rv": func(o object) ([]string, error) { return []string{o.ResourceVersion}, nil }}
	if err := idx.AddTypedIndexers(byRV); err != nil {
		t.Fatal(err)
	}
	if err := idx.Add(testObject("a", "x", "7")); err != nil {
		t.Fatal(err)
	}
	got, err := idx.ByTypedIndex("rv", "7")
	if err != nil || len(got) != 1 || got[0].Name != "x" {
		t.Fatalf("ByTypedIndex(rv, 7) = %v, %v", got, err)
	}
	if err := idx.Add(&otherObject{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "odd"}}); err == nil {
		t.Fatal("an object the typed index function cannot take was stored without error")
	}
	if fn := TypedIndexersToIndexers(byRV)["rv"]; fn == nil {
		t.Fatal("TypedIndexersToIndexers lost the index")
	}
}

func TestTypedFilteringHandlerTranslatesUpdatesAcrossTheFilter(t *testing.T) {
	in, out := testObject("keep", "a", "1"), testObject("drop", "a", "2")
	tests := []struct {
		name    string
		deliver func(h TypedResourceEventHandler[object])
		want    typedCalls
	}{
		{"add accepted", func(h TypedResourceEventHandler[object]) { h.OnAdd(in, true) }, typedCalls{"add keep/a@1 initial"}},
		{"add rejected", func(h TypedResourceEventHandler[object]) { h.OnAdd(out, false) }, nil},
		{"update inside", func(h TypedResourceEventHandler[object]) { h.OnUpdate(in, in) }, typedCalls{"update keep/a@1 -> keep/a@1"}},
		{"update into the set is an add", func(h TypedResourceEventHandler[object]) { h.OnUpdate(out, in) }, typedCalls{"add keep/a@1"}},
		{"update out of the set is a delete", func(h TypedResourceEventHandler[object]) { h.OnUpdate(in, out) }, typedCalls{"delete keep/a@1 key=keep/a"}},
		{"update outside", func(h TypedResourceEventHandler[object]) { h.OnUpdate(out, out) }, nil},
		{"latest-only update accepted", func(h TypedResourceEventHandler[object]) { h.OnUpdate(nil, in) }, typedCalls{"update <nil> -> keep/a@1"}},
		{"latest-only update rejected is a delete", func(h TypedResourceEventHandler[object]) { h.OnUpdate(nil, out) }, typedCalls{"delete drop/a@2 key=drop/a"}},
		{"delete accepted", func(h TypedResourceEventHandler[object]) { h.OnDelete(DeletedObject[object]{OptionalObj: in}) }, typedCalls{"delete keep/a@1 key=keep/a"}},
		{"resync accepted", func(h TypedResourceEventHandler[object]) { h.(TypedResyncHandler[object]).OnResync(in) }, typedCalls{"resync keep/a@1"}},
		{"resync rejected", func(h TypedResourceEventHandler[object]) { h.(TypedResyncHandler[object]).OnResync(out) }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got typedCalls
			h := TypedFilteringResourceEventHandler[object]{
				FilterFunc: func(o object) bool { return o != nil && o.Namespace == "keep" },
				Handler:    got.funcs(),
			}
			tt.deliver(h)
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("calls = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDeletedObjectNamesTheObjectInEveryCase(t *testing.T) {
	tests := []struct {
		name          string
		d             DeletedObject[object]
		key, ns, objN string
	}{
		{"observed namespaced", DeletedObject[object]{OptionalObj: testObject("ns", "a", "1")}, "ns/a", "ns", "a"},
		{"observed cluster-scoped", DeletedObject[object]{OptionalObj: testObject("", "a", "1")}, "a", "", "a"},
		{"tombstone with stale object", DeletedObject[object]{OptionalObj: testObject("ns", "a", "1"), FinalStateUnknown: &DeletedFinalStateUnknown{Key: "ns/a"}}, "ns/a", "ns", "a"},
		{"tombstone without object", DeletedObject[object]{FinalStateUnknown: &DeletedFinalStateUnknown{Key: "ns/b"}}, "ns/b", "ns", "b"},
		{"nothing", DeletedObject[object]{}, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.d.GetKey(); got != tt.key {
				t.Errorf("GetKey = %q, want %q", got, tt.key)
			}
			if got := tt.d.GetObjectName(); got != NewObjectName(tt.ns, tt.objN) {
				t.Errorf("GetObjectName = %v, want %s/%s", got, tt.ns, tt.objN)
			}
			if tt.d.GetName() != tt.objN || tt.d.GetNamespace() != tt.ns {
				t.Errorf("GetNamespace/GetName = %q/%q, want %q/%q", tt.d.GetNamespace(), tt.d.GetName(), tt.ns, tt.objN)
			}
		})
	}
}
