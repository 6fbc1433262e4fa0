package crd_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"testing"
	"unsafe"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	_ "github.com/informer-gen/informer-gen/examples/crd/pkg/generated/informers/externalversions/stable/v1" // registers the generated walks
	"github.com/informer-gen/informer-gen/runtime/compact"
)

// widgetJSON returns n Widgets, each encoded on its own: teams of ten
// share tags, colours and phases; names, UIDs and generations are their
// own.
func widgetJSON(tb testing.TB, n int) [][]byte {
	tb.Helper()
	out := make([][]byte, n)
	for i := range out {
		team := fmt.Sprintf("team-%d", i/10)
		w := stablev1.Widget{
			TypeMeta: metav1.TypeMeta{APIVersion: "stable.example.com/v1", Kind: "Widget"},
			ObjectMeta: metav1.ObjectMeta{Namespace: team, Name: fmt.Sprintf("widget-%d", i), UID: types.UID(fmt.Sprintf("uid-%09d", i)),
				ResourceVersion: fmt.Sprint(100 + i), Generation: int64(1 + i%3), Labels: map[string]string{"team": team, "tier": "backend"}},
			Spec:   stablev1.WidgetSpec{Size: int32(i % 4), Color: []string{"red", "green", "blue"}[i%3], Tags: []string{"prod", team, "owned-by-" + team}},
			Status: stablev1.WidgetStatus{ObservedGeneration: int64(1 + i%3), Phase: "Ready"},
		}
		b, err := json.Marshal(&w)
		if err != nil {
			tb.Fatal(err)
		}
		out[i] = b
	}
	return out
}

func decodeWidgets(tb testing.TB, src [][]byte) []*stablev1.Widget {
	tb.Helper()
	out := make([]*stablev1.Widget, len(src))
	for i, b := range src {
		out[i] = new(stablev1.Widget)
		if err := json.Unmarshal(b, out[i]); err != nil {
			tb.Fatal(err)
		}
	}
	return out
}

// The generated walk compacts Widgets: equal to their decoding, with the
// tags of a team's Widgets shared.
func TestGeneratedWidgetWalkSharesTagsAndKeepsWidgetsEqual(t *testing.T) {
	src := widgetJSON(t, 30)
	got, want := decodeWidgets(t, src), decodeWidgets(t, src)
	tab := compact.NewTable()
	for _, w := range got {
		tab.Object(w)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatal("compacted Widgets differ from their decoding")
	}
	if unsafe.SliceData(got[1].Spec.Tags) != unsafe.SliceData(got[2].Spec.Tags) {
		t.Error("equal tags of two Widgets of a team are not shared")
	}
	if unsafe.SliceData(got[2].Spec.Tags) == unsafe.SliceData(got[12].Spec.Tags) {
		t.Error("tags of two teams share one slice")
	}
}

// BenchmarkLiveHeapPerWidget reports the live heap of one cached Widget,
// decoded and compacted (run with -benchtime=1x).
func BenchmarkLiveHeapPerWidget(b *testing.B) {
	const count = 20000
	src := widgetJSON(b, count)
	for _, compacted := range []bool{false, true} {
		b.Run(fmt.Sprintf("compacted=%v", compacted), func(b *testing.B) {
			for range b.N {
				var before, after runtime.MemStats
				runtime.GC()
				runtime.GC()
				runtime.ReadMemStats(&before)
				ws := decodeWidgets(b, src)
				if compacted {
					for _, w := range ws {
						compact.Default().Object(w)
					}
				}
				runtime.GC()
				runtime.GC()
				runtime.ReadMemStats(&after)
				runtime.KeepAlive(ws)
				b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/count, "B/widget")
			}
		})
	}
}
