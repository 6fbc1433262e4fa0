package cache

import (
	"context"
	"testing"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

type ctxKey struct{}

func TestListWatchPrefersEachMethodsOwnFormAndFallsBack(t *testing.T) {
	ctx := context.WithValue(context.Background(), ctxKey{}, "caller")
	var got []string
	plainList := func(metav1.ListOptions) (runtime.Object, error) { got = append(got, "plain list"); return nil, nil }
	plainWatch := func(metav1.ListOptions) (watch.Interface, error) { got = append(got, "plain watch"); return nil, nil }
	ctxList := func(c context.Context, _ metav1.ListOptions) (runtime.Object, error) {
		got = append(got, "ctx list "+ctxName(c))
		return nil, nil
	}
	ctxWatch := func(c context.Context, _ metav1.ListOptions) (watch.Interface, error) {
		got = append(got, "ctx watch "+ctxName(c))
		return nil, nil
	}
	tests := []struct {
		name string
		lw   ListWatch
		want []string
	}{
		{"both forms", ListWatch{ListFunc: plainList, WatchFunc: plainWatch, ListWithContextFunc: ctxList, WatchFuncWithContext: ctxWatch},
			[]string{"plain list", "ctx list caller", "plain watch", "ctx watch caller"}},
		{"context forms only", ListWatch{ListWithContextFunc: ctxList, WatchFuncWithContext: ctxWatch},
			[]string{"ctx list background", "ctx list caller", "ctx watch background", "ctx watch caller"}},
		{"plain forms only", ListWatch{ListFunc: plainList, WatchFunc: plainWatch},
			[]string{"plain list", "plain list", "plain watch", "plain watch"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got = nil
			lw := tt.lw
			_, _ = lw.List(metav1.ListOptions{})
			_, _ = lw.ListWithContext(ctx, metav1.ListOptions{})
			_, _ = lw.Watch(metav1.ListOptions{})
			_, _ = lw.WatchWithContext(ctx, metav1.ListOptions{})
			if len(got) != len(tt.want) {
				t.Fatalf("calls = %q, want %q", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("calls = %q, want %q", got, tt.want)
				}
			}
		})
	}
	var empty ListWatch
	if _, err := empty.ListWithContext(ctx, metav1.ListOptions{}); err == nil {
		t.Fatal("a ListWatch without functions listed")
	}
}

func ctxName(c context.Context) string {
	if v, ok := c.Value(ctxKey{}).(string); ok {
		return v
	}
	return "background"
}

// plainLW implements only the context-less ListerWatcher.
type plainLW struct{ lists, watches int }

func (p *plainLW) List(metav1.ListOptions) (runtime.Object, error) {
	p.lists++
	return nil, nil
}
func (p *plainLW) Watch(metav1.ListOptions) (watch.Interface, error) {
	p.watches++
	return nil, nil
}

func TestToListerWatcherWithContextAdaptsOnlyWhatIsMissing(t *testing.T) {
	lw := &ListWatch{}
	if got := ToListerWatcherWithContext(lw); got != ListerWatcherWithContext(lw) {
		t.Fatalf("a ListWatch was wrapped: %T", got)
	}
	p := &plainLW{}
	adapted := ToListerWatcherWithContext(p)
	_, _ = adapted.ListWithContext(context.Background(), metav1.ListOptions{})
	_, _ = adapted.WatchWithContext(context.Background(), metav1.ListOptions{})
	if p.lists != 1 || p.watches != 1 {
		t.Fatalf("adapter calls: lists %d watches %d, want 1 and 1", p.lists, p.watches)
	}
}

type watchListClient struct{ unsupported bool }

func (c watchListClient) IsWatchListSemanticsUnSupported() bool { return c.unsupported }

func TestWatchListSemanticsOfTheClientDecideTheReflectorsFirstList(t *testing.T) {
	tests := []struct {
		name      string
		client    any
		wantWatch bool // the first request is a streaming watch list
	}{
		{"client without the method", struct{}{}, true},
		{"client supporting watch lists", watchListClient{false}, true},
		{"client not supporting watch lists", watchListClient{true}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := newFakeLW()
			lw := ToListWatcherWithWatchListSemantics(&ListWatch{
				ListWithContextFunc:  fake.ListWithContext,
				WatchFuncWithContext: fake.WatchWithContext,
				DisableChunking:      true,
			}, tt.client)
			r := NewReflectorWithOptions(lw, nil, NewStore(MetaNamespaceKeyFunc), ReflectorOptions{UseWatchList: true})
			if !chunkingDisabled(lw) {
				t.Error("DisableChunking lost by the wrapper")
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { defer close(done); r.RunWithContext(ctx) }()
			defer func() { cancel(); <-done }()
			cachetest.Eventually(t, "the first request", func() bool { return len(fake.lists())+len(fake.watches()) > 0 })
			watched := len(fake.watches()) > 0 && fake.watches()[0].SendInitialEvents != nil
			if watched != tt.wantWatch {
				t.Fatalf("first request a watch list = %v, want %v (lists %d, watches %d)", watched, tt.wantWatch, len(fake.lists()), len(fake.watches()))
			}
		})
	}
}
