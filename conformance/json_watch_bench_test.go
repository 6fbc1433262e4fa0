package conformance

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	restclientwatch "k8s.io/client-go/rest/watch"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	crdscheme "github.com/informer-gen/informer-gen/examples/crd/pkg/generated/clientset/versioned/scheme"
	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/jsondecode"
	"github.com/informer-gen/informer-gen/runtime/jsonwatch"
)

// benchWidgetStream is a JSON watch stream of n MODIFIED events of
// Widgets shaped as examples/crd's compaction benchmark's (ten per team).
func benchWidgetStream(b *testing.B, n int) string {
	var sb strings.Builder
	for i := range n {
		team := fmt.Sprintf("team-%d", i/10)
		sb.WriteString(widgetEvent(b, "MODIFIED", &stablev1.Widget{
			TypeMeta: metav1.TypeMeta{APIVersion: "stable.example.com/v1", Kind: "Widget"},
			ObjectMeta: metav1.ObjectMeta{Namespace: team, Name: fmt.Sprintf("widget-%d", i), UID: types.UID(fmt.Sprintf("uid-%09d", i)),
				ResourceVersion: fmt.Sprint(100 + i), Generation: int64(1 + i%3), Labels: map[string]string{"team": team, "tier": "backend"}},
			Spec:   stablev1.WidgetSpec{Size: int32(i % 4), Color: []string{"red", "green", "blue"}[i%3], Tags: []string{"prod", team, "owned-by-" + team}},
			Status: stablev1.WidgetStatus{ObservedGeneration: int64(1 + i%3), Phase: "Ready"},
		}))
	}
	return sb.String()
}

// BenchmarkJSONWatchEvent decodes a JSON watch stream of Widgets and
// compacts each event's object, as an informer does per event: through
// client-go's REST client decoding (the typed client's watch) and through
// the generated informer's jsonwatch.Watcher. One op is one event.
//
//	cd conformance && go test -run '^$' -bench JSONWatchEvent -benchmem -count 3 .
func BenchmarkJSONWatchEvent(b *testing.B) {
	const events = 200
	stream := benchWidgetStream(b, events)
	generated, _ := jsondecode.For[stablev1.Widget]()
	codecs := crdscheme.Codecs.WithoutConversion()
	info, _ := runtime.SerializerInfoForMediaType(codecs.SupportedMediaTypes(), runtime.ContentTypeJSON)
	for _, c := range []struct {
		name  string
		watch func(tab *compact.Table) watch.Interface
	}{
		{"typed-client+walk", func(*compact.Table) watch.Interface {
			frames := info.StreamSerializer.Framer.NewFrameReader(io.NopCloser(strings.NewReader(stream)))
			return watch.NewStreamWatcher(
				restclientwatch.NewDecoder(streaming.NewDecoder(frames, info.StreamSerializer.Serializer), codecs.DecoderToVersion(info.Serializer, nil)),
				apierrors.NewClientErrorReporter(http.StatusInternalServerError, http.MethodGet, "ClientWatchDecoding"))
		}},
		{"generated+intern+walk", func(tab *compact.Table) watch.Interface {
			jw := &jsonwatch.Watcher[stablev1.Widget, *stablev1.Widget]{
				Open: func(context.Context, metav1.ListOptions) (io.ReadCloser, error) {
					return io.NopCloser(strings.NewReader(stream)), nil
				},
				Kind: stablev1.SchemeGroupVersion.WithKind("Widget"), Codecs: codecs, Decode: generated, Table: tab,
			}
			w, err := jw.WatchWithContext(context.Background(), metav1.ListOptions{})
			if err != nil {
				b.Fatal(err)
			}
			return w
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			tab := compact.NewTable()
			n := 0
			for b.Loop() {
				for ev := range c.watch(tab).ResultChan() {
					tab.Object(ev.Object)
					n++
				}
			}
			if n%events != 0 {
				b.Fatalf("%d events, not a multiple of %d", n, events)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/event")
		})
	}
}

// BenchmarkJSONWatchDecodedEvent compares, on the same stream of MODIFIED
// Widgets (each a new version of a cached one), the two places an
// informer's compaction can run: after the decode, in the informer
// ("decode+walk": the jsonwatch.Watcher decodes, the informer's queue
// compacts each object against the cached version), and in the decoder
// ("decoded": the Watcher's compact.Decoded compacts it on the stream's
// goroutine with the same compaction and hint, and the informer skips
// it). The cache is the widgetCache of json_watch_decoded_test.go, filled
// with the stream's objects before the timer starts; one op is one event.
//
//	cd conformance && go test -run '^$' -bench JSONWatchDecodedEvent -benchmem -count 6 .
func BenchmarkJSONWatchDecodedEvent(b *testing.B) {
	const events = 200
	stream := benchWidgetStream(b, events)
	generated, _ := jsondecode.For[stablev1.Widget]()
	codecs := crdscheme.Codecs.WithoutConversion()
	for _, decoding := range []bool{false, true} {
		b.Run(map[bool]string{false: "decode+walk", true: "decoded"}[decoding], func(b *testing.B) {
			c := newWidgetCache(decoding)
			jw := &jsonwatch.Watcher[stablev1.Widget, *stablev1.Widget]{
				Open: func(context.Context, metav1.ListOptions) (io.ReadCloser, error) {
					return io.NopCloser(strings.NewReader(stream)), nil
				},
				Kind: stablev1.SchemeGroupVersion.WithKind("Widget"), Codecs: codecs, Decode: generated, Table: c.table, Decoded: c.decoded,
			}
			run := func() int {
				w, err := jw.WatchWithContext(context.Background(), metav1.ListOptions{})
				if err != nil {
					b.Fatal(err)
				}
				n := 0
				for ev := range w.ResultChan() {
					c.cache(ev)
					n++
				}
				return n
			}
			run() // every key cached: each event is an update
			n := 0
			for b.Loop() {
				n += run()
			}
			if n%events != 0 || c.skipped != n+events && decoding {
				b.Fatalf("%d events, %d compacted by the decoder", n, c.skipped)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/event")
		})
	}
}
