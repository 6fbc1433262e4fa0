package compact

import (
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"sync"
	"testing"
	"unsafe"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// widget is a test object with the shapes generated walks handle: nested
// structs, slices, maps of quantities, pointers and times.
type widget struct {
	metav1.ObjectMeta `json:"metadata"`
	Containers        []container `json:"containers"`
}

type container struct {
	Name      string                       `json:"name"`
	Args      []string                     `json:"args"`
	Resources map[string]resource.Quantity `json:"resources"`
	Probe     *probe                       `json:"probe"`
}

type probe struct {
	Path    string      `json:"path"`
	Port    int32       `json:"port"`
	Started metav1.Time `json:"started"`
}

// The walks below are what informer-gen generates for these types.

func compactWidget(t *Table, p *widget, h *Hash) {
	reflectiveFor(reflect.TypeFor[*metav1.ObjectMeta]())(t, &p.ObjectMeta)
	Slice(t, &p.Containers, compactContainer, equalContainer, h)
}

func compactContainer(t *Table, p *container, h *Hash) {
	String(t, &p.Name, h)
	Slice(t, &p.Args, String, Eq[string], h)
	Map(t, &p.Resources, String, QuantityValue, EqualQuantity, h)
	Pointer(t, &p.Probe, compactProbe, equalProbe, h)
}

func equalContainer(a, b *container) bool {
	return a.Name == b.Name && EqualSlices(a.Args, b.Args, Eq[string]) &&
		EqualMaps(a.Resources, b.Resources, EqualQuantity) && EqualPointers(a.Probe, b.Probe, equalProbe)
}

func compactProbe(t *Table, p *probe, h *Hash) {
	String(t, &p.Path, h)
	Scalar(t, &p.Port, h)
	MetaTime(t, &p.Started, h)
}

func equalProbe(a, b *probe) bool {
	return a.Path == b.Path && a.Port == b.Port && EqualMetaTime(&a.Started, &b.Started)
}

func init() {
	Register(compactWidget)
}

// decodeWidget decodes a widget from its own JSON, so that nothing is
// shared by construction.
func decodeWidget(tb testing.TB, name, image string, args []string, cpu string) *widget {
	tb.Helper()
	src := fmt.Sprintf(`{"metadata":{"name":%q,"namespace":"ns","labels":{"app":"web","tier":"front"}},
	  "containers":[{"name":"c","args":%s,"resources":{"cpu":%q,"memory":"128Mi"},
	  "probe":{"path":%q,"port":8080,"started":"2026-01-02T03:04:05Z"}}]}`, name, mustJSON(tb, args), cpu, image)
	var w widget
	if err := json.Unmarshal([]byte(src), &w); err != nil {
		tb.Fatal(err)
	}
	return &w
}

func mustJSON(tb testing.TB, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

func TestCompactedObjectsEqualTheirDecodedInput(t *testing.T) {
	tab := NewTable()
	cases := []struct {
		name string
		args []string
		cpu  string
	}{
		{"nil args", nil, "100m"},
		{"empty args", []string{}, "100m"},
		{"args", []string{"--v=2", "--port=80"}, "1"},
		{"milli one", []string{"--v=2", "--port=80"}, "1000m"},
		{"big", []string{"x"}, "100000000000000000000000000000"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for i := range 3 {
				w := decodeWidget(t, fmt.Sprintf("w%d", i), "/healthz", tc.args, tc.cpu)
				want := decodeWidget(t, fmt.Sprintf("w%d", i), "/healthz", tc.args, tc.cpu)
				tab.Object(w)
				if !reflect.DeepEqual(w, want) {
					t.Fatalf("compacted %#v\nwant %#v", w, want)
				}
			}
		})
	}
}

func TestEqualPartsAreSharedAndUnequalPartsAreNot(t *testing.T) {
	tab := NewTable()
	// A value is shared from its second sighting on (the first object
	// keeps its own copy): warm the table with one of each.
	tab.Object(decodeWidget(t, "w", "/healthz", []string{"--v=2"}, "1"))
	tab.Object(decodeWidget(t, "w", "/healthz", []string{"--v=2"}, "1000m"))
	a := decodeWidget(t, "a", "/healthz", []string{"--v=2"}, "1")
	b := decodeWidget(t, "b", "/healthz", []string{"--v=2"}, "1")
	c := decodeWidget(t, "c", "/healthz", []string{"--v=2"}, "1000m")
	for _, w := range []*widget{a, b, c} {
		tab.Object(w)
	}
	ca, cb, cc := a.Containers[0], b.Containers[0], c.Containers[0]
	if unsafe.SliceData(ca.Args) != unsafe.SliceData(cb.Args) || unsafe.SliceData(ca.Args) != unsafe.SliceData(cc.Args) {
		t.Error("equal args are not shared")
	}
	if ca.Probe != cb.Probe {
		t.Error("equal probes are not shared")
	}
	if mapData(ca.Resources) != mapData(cb.Resources) {
		t.Error("equal resource maps are not shared")
	}
	if mapData(ca.Resources) == mapData(cc.Resources) {
		t.Error("resources 1 and 1000m share one map: quantities must compare exactly")
	}
	if mapData(a.Labels) != mapData(b.Labels) {
		t.Error("equal labels are not shared by the reflective walk")
	}
	if unsafe.StringData(a.Namespace) != unsafe.StringData(c.Namespace) {
		t.Error("namespace strings are not interned")
	}
}

func TestValuesSeenOnceAreNeitherInternedNorShared(t *testing.T) {
	tab := NewTable()
	a := decodeWidget(t, "unique-a", "/p", []string{"only-a"}, "1")
	b := decodeWidget(t, "unique-b", "/p", []string{"only-b"}, "1")
	tab.Object(a)
	tab.Object(b)
	if n := tab.Len(); n > 4 {
		t.Errorf("table holds %d values after two objects that repeat little", n)
	}
	if unsafe.StringData(a.Name) == unsafe.StringData(InternString("unique-a")) && unsafe.StringData(b.Name) == unsafe.StringData(InternString("unique-b")) {
		t.Error("names seen once were interned")
	}
}

// A value that repeats only inside one object (a Pod's volume name in its
// volumes and its mounts) is left as it is; once another object holds it,
// it is shared, in that object too.
func TestValuesRepeatedInsideOneObjectOnlyAreNotShared(t *testing.T) {
	tab := NewTable()
	object := func(name string) *metav1.PartialObjectMetadata {
		same := func() map[string]string { return map[string]string{"only": "these-two-" + t.Name()} }
		return &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: same(), Annotations: same()}}
	}
	first, second := object("first"), object("second")
	tab.Object(first)
	if n := tab.Len(); n != 0 {
		t.Errorf("the table holds %d values after an object whose values repeat only inside it", n)
	}
	tab.Object(second)
	header := func(m map[string]string) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&m)) }
	if header(first.Labels) == header(first.Annotations) {
		t.Error("labels and annotations of the first object, equal only to each other, are shared")
	}
	if header(second.Labels) != header(second.Annotations) {
		t.Error("labels and annotations of the second object, equal to the first's, are not shared")
	}
}

// A slice that stays the object's own (no other object holds its value)
// loses the spare capacity its decoding grew it with; its contents stay.
func TestSlicesTheObjectKeepsAreRightSized(t *testing.T) {
	tab := NewTable()
	own := append(make([]string, 0, 8), "only-"+t.Name(), "mine")
	obj := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: "o", Finalizers: own}}
	tab.Object(obj)
	if got := obj.Finalizers; cap(got) != 2 || !reflect.DeepEqual(got, []string{"only-" + t.Name(), "mine"}) {
		t.Errorf("finalizers %q with capacity %d, want the same two with capacity 2", got, cap(got))
	}
}

func TestNilAndEmptyAreNeverShared(t *testing.T) {
	tab := NewTable()
	empty := decodeWidget(t, "e", "/p", []string{}, "1")
	null := decodeWidget(t, "n", "/p", nil, "1")
	tab.Object(empty)
	tab.Object(null)
	if empty.Containers[0].Args == nil {
		t.Error("empty args became nil")
	}
	if null.Containers[0].Args != nil {
		t.Error("nil args became empty")
	}
}

func TestCompactingTwiceWritesNothing(t *testing.T) {
	tab := NewTable()
	w := decodeWidget(t, "w", "/p", []string{"a"}, "1")
	tab.Object(w)
	// Another goroutine reads the compacted object while it is compacted
	// again: the race detector fails this test if the second walk writes.
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 100 {
			_ = fmt.Sprint(w.Containers[0].Args, w.Containers[0].Probe.Path, w.Labels, w.Name)
		}
	}()
	for range 100 {
		tab.Object(w)
	}
	wg.Wait()
}

func TestTableShrinksWhenObjectsAreGone(t *testing.T) {
	tab := NewTable()
	objs := make([]*widget, 500)
	for i := range objs {
		// Pairs of objects with equal parts: values repeat, so the table
		// holds them.
		objs[i] = decodeWidget(t, fmt.Sprintf("w%d", i), fmt.Sprintf("/p%d", i/2), []string{fmt.Sprint(i / 2)}, fmt.Sprintf("%dm", i/2+1))
		tab.Object(objs[i])
	}
	full := tab.Len()
	// Four shareable values per pair (args, probe, resources, and labels
	// repeated throughout); the admission filter is lossy, so a few may be
	// missing.
	if want := 3 * len(objs) / 2; full < want {
		t.Fatalf("table holds %d values for %d pairs of objects, want at least %d", full, len(objs)/2, want)
	}
	// Churn: half the objects are deleted and replaced by others that
	// share one value.
	for i := range objs[:250] {
		objs[i] = decodeWidget(t, fmt.Sprintf("new%d", i), "/same", []string{"same"}, "1")
		tab.Object(objs[i])
	}
	runtime.GC()
	runtime.GC()
	tab.Sweep()
	if got, most := tab.Len(), full*3/4; got > most {
		t.Errorf("after deleting half the objects the table holds %d values, more than %d", got, most)
	}
	runtime.KeepAlive(objs)
	objs = nil
	runtime.GC()
	runtime.GC()
	tab.Sweep()
	if got := tab.Len(); got > full/10 {
		t.Errorf("with no objects left the table holds %d of its %d values", got, full)
	}
}

func TestObjectsWithoutWalksAreLeftAlone(t *testing.T) {
	tab := NewTable()
	type opaque struct {
		secret string
		Any    any
		M      map[int]string
	}
	o := &opaque{secret: "s", Any: 1, M: map[int]string{1: "x"}}
	want := &opaque{secret: "s", Any: 1, M: map[int]string{1: "x"}}
	tab.Object(o)
	if !reflect.DeepEqual(o, want) {
		t.Errorf("got %#v, want %#v", o, want)
	}
}

// selfCompacting compacts itself (Compacter), before any registered or
// reflective walk.
type selfCompacting struct{ calls int }

func (s *selfCompacting) Compact(*Table) { s.calls++ }

func TestCompacterMethodIsUsedFirst(t *testing.T) {
	o := &selfCompacting{}
	NewTable().Object(o)
	if o.calls != 1 {
		t.Errorf("Compact called %d times, want 1", o.calls)
	}
}

// gizmo's walk is registered (as another package's generated code
// registers its types' walks); Value finds it.
type gizmo struct{ Name string }

func TestValueUsesTheRegisteredWalkOfItsType(t *testing.T) {
	calls := 0
	RegisterWalk(func(t *Table, p *gizmo, h *Hash) { calls++; String(t, &p.Name, h) }, func(a, b *gizmo) bool { return a.Name == b.Name })
	var h Hash
	g := gizmo{Name: "x"}
	Value(NewTable(), &g, &h)
	if calls != 1 {
		t.Errorf("registered walk called %d times, want 1", calls)
	}
	if !EqualValue(&gizmo{"a"}, &gizmo{"a"}) || EqualValue(&gizmo{"a"}, &gizmo{"b"}) {
		t.Error("EqualValue does not use the registered equality")
	}
}

// A quantity whose string is not cached yet (128Mi) is not shared outside
// maps: its String method would write the shared copy.
func TestQuantitiesWithoutACachedStringAreSharedOnlyAsMapValues(t *testing.T) {
	type holder struct{ Q *resource.Quantity }
	walk := func(t *Table, p *holder, h *Hash) {
		Pointer(t, &p.Q, Quantity, EqualQuantity, h)
	}
	tab := NewTable()
	var hs []*holder
	for range 3 {
		var q resource.Quantity
		if err := json.Unmarshal([]byte(`"128Mi"`), &q); err != nil {
			t.Fatal(err)
		}
		h := &holder{Q: &q}
		var hash Hash
		walk(tab, h, &hash)
		if !hash.IsOpaque() {
			t.Error("a quantity without its string cached is not opaque")
		}
		hs = append(hs, h)
	}
	if hs[1].Q == hs[2].Q {
		t.Error("pointers to quantities whose String writes are shared")
	}
	m := []map[string]resource.Quantity{{"m": resource.MustParse("128Mi")}, {"m": resource.MustParse("128Mi")}, {"m": resource.MustParse("128Mi")}}
	for i := range m {
		var h Hash
		Map(tab, &m[i], String, QuantityValue, EqualQuantity, &h)
	}
	if mapData(m[1]) != mapData(m[2]) {
		t.Error("equal resource maps are not shared")
	}
}

// An object's UID and resourceVersion are its own: even when two walked
// objects carry the same (two versions of one object, walked whole), the
// table is not asked for them, while what repeats beside them is
// interned. An update walk takes them from the old version when equal.
func TestAnObjectsUIDAndResourceVersionAreItsOwn(t *testing.T) {
	tab := NewTable()
	version := func() *metav1.PartialObjectMetadata {
		return &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{
			Name: "o", Namespace: "ns-" + t.Name(), UID: types.UID("uid-" + t.Name()), ResourceVersion: fmt.Sprint(42),
		}}
	}
	// A value is interned from its second sighting on: compare the second
	// and third versions.
	first, second, third := version(), version(), version()
	for _, v := range []*metav1.PartialObjectMetadata{first, second, third} {
		tab.Object(v)
	}
	if unsafe.StringData(string(second.UID)) == unsafe.StringData(string(third.UID)) {
		t.Error("two versions' UIDs share one string: the table was asked for them")
	}
	if unsafe.StringData(second.ResourceVersion) == unsafe.StringData(third.ResourceVersion) {
		t.Error("two versions' resourceVersions share one string: the table was asked for them")
	}
	if unsafe.StringData(second.Namespace) != unsafe.StringData(third.Namespace) {
		t.Error("the namespace beside them is not interned")
	}
	update := tab.TransformUpdate(first)
	next := version()
	next.ResourceVersion = "43"
	update(next, third)
	if unsafe.StringData(string(next.UID)) != unsafe.StringData(string(third.UID)) {
		t.Error("the update walk did not take the old version's equal UID")
	}
	if next.ResourceVersion != "43" {
		t.Errorf("resourceVersion %q after the update walk, want 43", next.ResourceVersion)
	}
}
