package compact

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// unstructuredPod is the i-th Pod of a Deployment as JSON.
func unstructuredPod(i int, phase string) string {
	return fmt.Sprintf(`{"apiVersion":"v1","kind":"Pod",
	"metadata":{"name":"web-%d","namespace":"ns","uid":"uid-%d","resourceVersion":"%d",
		"labels":{"app":"web","pod-template-hash":"5d8f7c9b4"},
		"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-5d8f7c9b4","uid":"rs","controller":true}]},
	"spec":{"containers":[{"name":"web","image":"registry.example.com/web:1.2.3","args":["--port","8080"],
		"env":[{"name":"MODE","value":"production"},{"name":"EMPTY","value":""}],
		"ports":[{"containerPort":8080,"protocol":"TCP"}],
		"resources":{"requests":{"cpu":"100m","memory":"128Mi"},"limits":{}}}],
		"terminationGracePeriodSeconds":30,"nodeName":"node-%d","tolerations":[]},
	"status":{"phase":%q,"podIP":"10.0.0.%d","conditions":null}}`, i, i, 100+i, i%2, phase, i)
}

// unstructuredCR is the i-th custom resource with every kind of JSON value.
func unstructuredCR(i int) string {
	return fmt.Sprintf(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w-%d"},
	"spec":{"replicas":1,"ratio":1.0,"scale":0.5,"big":9007199254740993,"enabled":true,"nothing":null,
		"empty":{},"none":[],"nested":[[1,"1",1.5],[{"a":{"b":[true,false,null]}}]],"unicode":"héllo"}}`, i)
}

func decodeUnstructured(tb testing.TB, data string) *unstructured.Unstructured {
	tb.Helper()
	obj, _, err := unstructured.UnstructuredJSONScheme.Decode([]byte(data), nil, nil)
	if err != nil {
		tb.Fatalf("decoding %s: %v", data, err)
	}
	return obj.(*unstructured.Unstructured)
}

func TestUnstructuredObjectsStayDeepEqualToTheirDecoding(t *testing.T) {
	for _, tc := range []struct {
		name string
		json func(i int) string
	}{
		{"pod", func(i int) string { return unstructuredPod(i, "Running") }},
		{"custom resource with ints, floats, nulls and empties", unstructuredCR},
	} {
		t.Run(tc.name, func(t *testing.T) {
			table := NewTable()
			const n = 40
			objs := make([]*unstructured.Unstructured, n)
			for i := range objs {
				objs[i] = decodeUnstructured(t, tc.json(i))
			}
			var wg sync.WaitGroup
			for w := range 4 { // concurrently, for -race
				wg.Go(func() {
					for i := w; i < n; i += 4 {
						table.Object(objs[i])
					}
				})
			}
			wg.Wait()
			for i, obj := range objs {
				if want := decodeUnstructured(t, tc.json(i)); !reflect.DeepEqual(obj, want) {
					t.Fatalf("object %d compacted is %#v, decoded %#v", i, obj.Object, want.Object)
				}
			}
		})
	}
}

// at returns the value at path in obj.
func at(tb testing.TB, obj *unstructured.Unstructured, path ...any) any {
	tb.Helper()
	var v any = obj.Object
	for _, p := range path {
		switch k := p.(type) {
		case string:
			v = v.(map[string]any)[k]
		case int:
			v = v.([]any)[k]
		}
	}
	return v
}

func TestUnstructuredStringsAndRepeatedSubtreesAreShared(t *testing.T) {
	table := NewTable()
	objs := make([]*unstructured.Unstructured, 5)
	for i := range objs {
		objs[i] = decodeUnstructured(t, unstructuredPod(i, "Running"))
		table.Object(objs[i])
	}
	a, b := objs[2], objs[4] // both after the first sighting of each value (node-0)
	container := []any{"spec", "containers", 0}
	for _, tc := range []struct {
		name string
		path []any
	}{
		{"labels", []any{"metadata", "labels"}},
		{"owner references", []any{"metadata", "ownerReferences"}},
		{"env", append(container, "env")},
		{"resources", append(container, "resources")},
		{"containers", []any{"spec", "containers"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, y := at(t, a, tc.path...), at(t, b, tc.path...)
			if reflect.ValueOf(x).UnsafePointer() != reflect.ValueOf(y).UnsafePointer() {
				t.Errorf("%v is not shared", tc.path)
			}
		})
	}
	for _, tc := range []struct {
		name      string
		path      []any
		different bool
	}{
		{"image", append(container, "image"), false},
		{"namespace", []any{"metadata", "namespace"}, false},
		{"phase", []any{"status", "phase"}, false},
		{"node name, one of two values", []any{"spec", "nodeName"}, false},
		{"name, each object's own", []any{"metadata", "name"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, y := at(t, a, tc.path...).(string), at(t, b, tc.path...).(string)
			if (x == y) != !tc.different {
				t.Fatalf("%v: %q and %q", tc.path, x, y)
			}
			if !tc.different && unsafe.StringData(x) != unsafe.StringData(y) {
				t.Errorf("%v %q is not interned", tc.path, x)
			}
		})
	}
	for k := range a.Object["metadata"].(map[string]any) {
		for k2 := range b.Object["metadata"].(map[string]any) {
			if k == k2 && unsafe.StringData(k) != unsafe.StringData(k2) {
				t.Errorf("map key %q is not interned", k)
			}
		}
	}
}

func TestUnstructuredValuesOfDifferentTypesOrNilAndEmptyAreNotShared(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{`1`, `1.0`},
		{`1`, `"1"`},
		{`null`, `{}`},
		{`{}`, `[]`},
		{`[]`, `null`},
		{`{"x":null}`, `{}`},
		{`[1]`, `[1.0]`},
	} {
		t.Run(tc.a+" and "+tc.b, func(t *testing.T) {
			table := NewTable()
			obj := func(i int, v string) *unstructured.Unstructured {
				return decodeUnstructured(t, fmt.Sprintf(`{"apiVersion":"v1","kind":"K","metadata":{"name":"o%d"},"spec":{"v":%s,"w":"shared"}}`, i, v))
			}
			var got []*unstructured.Unstructured
			for i, v := range []string{tc.a, tc.a, tc.b, tc.b, tc.a} {
				o := obj(i, v)
				table.Object(o)
				got = append(got, o)
				if want := obj(i, v); !reflect.DeepEqual(o, want) {
					t.Fatalf("object %d (%s) compacted is %#v, decoded %#v", i, v, o.Object, want.Object)
				}
			}
			for i := range got {
				if want := obj(i, []string{tc.a, tc.a, tc.b, tc.b, tc.a}[i]); !reflect.DeepEqual(got[i], want) {
					t.Errorf("object %d changed after later compactions: %#v", i, got[i].Object)
				}
			}
		})
	}
}

func TestUnstructuredUpdateKeepsTheCachedVersionsEqualParts(t *testing.T) {
	for _, tc := range []struct {
		name      string
		newPhase  string
		keptPaths [][]any
	}{
		{"status changed", "Succeeded", [][]any{{"spec"}, {"metadata", "labels"}, {"spec", "containers"}}},
		{"nothing changed but the resourceVersion", "Running", [][]any{{"spec"}, {"status"}, {"metadata", "ownerReferences"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			table := NewTable()
			update := table.TransformUpdate(&unstructured.Unstructured{})
			old := decodeUnstructured(t, unstructuredPod(1, "Running"))
			update(old, nil)
			newer := strings.Replace(unstructuredPod(1, tc.newPhase), `"resourceVersion":"101"`, `"resourceVersion":"102"`, 1)
			obj := decodeUnstructured(t, newer)
			update(obj, old)
			if want := decodeUnstructured(t, newer); !reflect.DeepEqual(obj, want) {
				t.Fatalf("updated object is %#v, decoded %#v", obj.Object, want.Object)
			}
			if got := obj.GetResourceVersion(); got != "102" {
				t.Fatalf("resourceVersion %q, want 102", got)
			}
			for _, path := range tc.keptPaths {
				if reflect.ValueOf(at(t, obj, path...)).UnsafePointer() != reflect.ValueOf(at(t, old, path...)).UnsafePointer() {
					t.Errorf("%v is not the cached version's", path)
				}
			}
		})
	}
}

func TestUnstructuredIsCompactedByARegisteredWalk(t *testing.T) {
	for _, example := range []any{&unstructured.Unstructured{}, &unstructured.UnstructuredList{}} {
		if !Registered(example) {
			t.Errorf("%T has no registered compaction", example)
		}
	}
}

// jsonHolder is a type without a registered walk whose fields hold JSON.
type jsonHolder struct {
	Name  string         `json:"name"`
	Spec  map[string]any `json:"spec"`
	Items []any          `json:"items"`
	Extra any            `json:"extra"`
}

func TestReflectiveWalksShareTheJSONTheirFieldsHold(t *testing.T) {
	for _, tc := range []struct {
		name  string
		field func(*jsonHolder) any
	}{
		{"map[string]any", func(o *jsonHolder) any { return o.Spec["labels"] }},
		{"[]any", func(o *jsonHolder) any { return o.Items[0] }},
		{"any", func(o *jsonHolder) any { return o.Extra }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			table := NewTable()
			decode := func(i int) *jsonHolder {
				u := decodeUnstructured(t, fmt.Sprintf(`{"apiVersion":"v1","kind":"K","name":"h-%d",
					"spec":{"labels":{"app":"web"},"replicas":%d},"entries":[{"a":[1,2.5]}],"extra":{"b":null}}`, i, i))
				return &jsonHolder{Name: u.Object["name"].(string), Spec: u.Object["spec"].(map[string]any),
					Items: u.Object["entries"].([]any), Extra: u.Object["extra"]}
			}
			objs := []*jsonHolder{decode(0), decode(1), decode(2)}
			for i, o := range objs {
				table.Object(o)
				if want := decode(i); !reflect.DeepEqual(o, want) {
					t.Fatalf("object %d compacted is %#v, decoded %#v", i, o, want)
				}
			}
			if x, y := tc.field(objs[1]), tc.field(objs[2]); reflect.ValueOf(x).UnsafePointer() != reflect.ValueOf(y).UnsafePointer() {
				t.Errorf("%s is not shared", tc.name)
			}
		})
	}
}
