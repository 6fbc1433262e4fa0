package protowatch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync/atomic"
	"testing"
	"testing/synctest"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/watch"
)

// metaCodecs decodes the objects of metav1 (the test's T is
// metav1.PartialObjectMetadata, which has a generated Unmarshal).
func metaCodecs(t *testing.T) runtime.NegotiatedSerializer {
	t.Helper()
	s := runtime.NewScheme()
	if err := metav1.AddMetaToScheme(s); err != nil {
		t.Fatal(err)
	}
	return serializer.NewCodecFactory(s).WithoutConversion()
}

func TestWatcherFallsBackToTheTypedWatch(t *testing.T) {
	typed := watch.NewFake()
	for _, tc := range []struct {
		name       string
		openErr    error
		wantOpened int // Open calls over two watches, each of which the typed client makes
	}{
		{name: "a client that cannot stream (a fake clientset)", openErr: ErrNoStream, wantOpened: 2},
		{name: "a server that refuses protobuf (406) is not asked again", openErr: apierrors.NewGenericServerResponse(http.StatusNotAcceptable, "GET", schema.GroupResource{Resource: "widgets"}, "", "", 0, false), wantOpened: 1},
		{name: "a server that refuses the content type (415) is not asked again", openErr: apierrors.NewGenericServerResponse(http.StatusUnsupportedMediaType, "GET", schema.GroupResource{Resource: "widgets"}, "", "", 0, false), wantOpened: 1},
		{name: "a broken connection: the typed client retries as client-go does", openErr: io.ErrUnexpectedEOF, wantOpened: 2},
		{name: "an error status: the typed client's error, worded as client-go's", openErr: apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, "", errors.New("no")), wantOpened: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opened, watched atomic.Int32
			pw := &Watcher[metav1.PartialObjectMetadata, *metav1.PartialObjectMetadata]{
				Open: func(context.Context, metav1.ListOptions) (io.ReadCloser, error) {
					opened.Add(1)
					return nil, tc.openErr
				},
				Watch: func(context.Context, metav1.ListOptions) (watch.Interface, error) {
					watched.Add(1)
					return typed, nil
				},
				Kind:   metav1.SchemeGroupVersion.WithKind("PartialObjectMetadata"),
				Codecs: metaCodecs(t),
			}
			for range 2 {
				if w, err := pw.WatchWithContext(context.Background(), metav1.ListOptions{}); w != typed || err != nil {
					t.Fatalf("watch %v, error %v; want the typed watch", w, err)
				}
			}
			if int(opened.Load()) != tc.wantOpened || watched.Load() != 2 {
				t.Errorf("Open called %d times, typed Watch %d; want %d and 2", opened.Load(), watched.Load(), tc.wantOpened)
			}
		})
	}
}

// blockingBody is a response body that delivers its data, then blocks
// until it is closed.
type blockingBody struct {
	data   []byte
	closed chan struct{}
}

func (b *blockingBody) Read(p []byte) (int, error) {
	if len(b.data) > 0 {
		n := copy(p, b.data)
		b.data = b.data[n:]
		return n, nil
	}
	<-b.closed
	return 0, errors.New("use of closed network connection")
}

func (b *blockingBody) Close() error {
	select {
	case <-b.closed:
	default:
		close(b.closed)
	}
	return nil
}

func TestWatcherStopEndsTheStreamAndClosesTheBody(t *testing.T) {
	for _, tc := range []struct {
		name string
		data []byte // what the server sent before the stream went quiet
	}{
		{name: "while waiting for the server", data: nil},
		{name: "while the caller does not read an event", data: []byte{0, 0, 0, 4, 0x0a, 0x02, 'A', 'D'}},
	} {
		// In a synctest bubble: synctest.Wait returns once the stream's
		// goroutine is blocked (reading the body, or sending an event
		// nobody reads), and a goroutine that never ends fails the test.
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				body := &blockingBody{data: tc.data, closed: make(chan struct{})}
				pw := &Watcher[metav1.PartialObjectMetadata, *metav1.PartialObjectMetadata]{
					Open:   func(context.Context, metav1.ListOptions) (io.ReadCloser, error) { return body, nil },
					Kind:   metav1.SchemeGroupVersion.WithKind("PartialObjectMetadata"),
					Codecs: metaCodecs(t),
				}
				w, err := pw.WatchWithContext(context.Background(), metav1.ListOptions{})
				if err != nil {
					t.Fatal(err)
				}
				synctest.Wait() // the stream blocks
				w.Stop()
				w.Stop() // idempotent
				select { // Stop closes the body before it returns
				case <-body.closed:
				default:
					t.Fatal("Stop did not close the body")
				}
				for range w.ResultChan() { // closed once the goroutine ends
				}
			})
		})
	}
}
