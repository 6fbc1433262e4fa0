package cluster

import (
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
)

// BookmarkFilter is a loopback HTTP proxy in front of the API server that
// drops the initial-events-end bookmark of every watch list: a server, or
// a proxy in front of one, that accepts sendInitialEvents but never ends
// the initial events. Everything else passes unchanged.
//
// It is built on net/http/httputil.ReverseProxy: clients speak plain HTTP
// to it on 127.0.0.1, and it forwards every request to the API server with
// the transport of an upstream configuration (TLS and credentials
// included), flushing every write. The response of a watch with
// sendInitialEvents=true is re-streamed frame by frame (ModifyResponse
// wraps its body in an initialEventsEndFilter), so the filter reads JSON
// only: clients must request application/json, as Config's do.
//
// Every request is recorded (Exchanges) with the order in which requests
// arrived and bookmarks were dropped. All methods are safe for concurrent
// use.
type BookmarkFilter struct {
	ln        net.Listener
	server    *http.Server
	target    *url.URL
	transport http.RoundTripper
	served    chan struct{} // closed when server.Serve returned

	mu        sync.Mutex
	exchanges []Exchange     // every forwarded request, in arrival order; guarded by mu
	seq       int            // the last sequence number given; guarded by mu
	closed    bool           // no request is served once set; guarded by mu
	handlers  sync.WaitGroup // requests being served; Add under mu while !closed
}

// Exchange is a request the BookmarkFilter forwarded.
type Exchange struct {
	// Seq orders the requests and the dropped bookmarks: each takes the
	// next number when it arrives or is dropped.
	Seq int
	// Method and URL (path and query) are the request's.
	Method string
	URL    url.URL
	// WatchList says the request is a watch with sendInitialEvents=true:
	// its response is filtered.
	WatchList bool
	// DroppedAt is the Seq taken when the filter dropped this watch
	// list's initial-events-end bookmark; 0 if it did not (yet).
	DroppedAt int
}

// IsList says the request is a LIST: a GET that is not a watch.
func (e Exchange) IsList() bool {
	return e.Method == http.MethodGet && !isWatch(e.URL.Query())
}

func isWatch(q url.Values) bool {
	w := q.Get("watch")
	return w == "true" || w == "1"
}

func isWatchList(q url.Values) bool {
	return isWatch(q) && q.Get("sendInitialEvents") == "true"
}

// NewBookmarkFilter listens on a free port of 127.0.0.1 and forwards every
// request to the API server of upstream, with upstream's credentials,
// until Close.
func NewBookmarkFilter(upstream *rest.Config) (*BookmarkFilter, error) {
	target, _, err := rest.DefaultServerUrlFor(upstream)
	if err != nil {
		return nil, fmt.Errorf("bookmark filter: upstream address: %w", err)
	}
	transport, err := rest.TransportFor(upstream)
	if err != nil {
		return nil, fmt.Errorf("bookmark filter: upstream transport: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	f := &BookmarkFilter{ln: ln, target: target, transport: transport, served: make(chan struct{})}
	f.server = &http.Server{Handler: f}
	go func() {
		defer close(f.served)
		_ = f.server.Serve(ln)
	}()
	return f, nil
}

// Addr returns the filter's host:port.
func (f *BookmarkFilter) Addr() string { return f.ln.Addr().String() }

// Config returns a client configuration that reaches the API server
// through the filter, in plain HTTP, as the upstream user, and requests
// JSON, the only encoding the filter reads.
func (f *BookmarkFilter) Config() *rest.Config {
	return &rest.Config{
		Host: "http://" + f.Addr(),
		ContentConfig: rest.ContentConfig{
			ContentType:        runtime.ContentTypeJSON,
			AcceptContentTypes: runtime.ContentTypeJSON,
		},
		QPS:   1000,
		Burst: 2000,
	}
}

// Exchanges returns a copy of the requests forwarded so far, in arrival
// order.
func (f *BookmarkFilter) Exchanges() []Exchange {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Exchange(nil), f.exchanges...)
}

// Close stops the filter: it closes the listener and every connection
// (in-flight watches included) and waits until no request is being
// served. It is safe to call more than once.
func (f *BookmarkFilter) Close() error {
	f.mu.Lock()
	f.closed = true
	f.mu.Unlock()
	err := f.server.Close()
	<-f.served
	f.handlers.Wait()
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	return err
}

// ServeHTTP records the request and forwards it.
func (f *BookmarkFilter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		http.Error(w, "bookmark filter: closed", http.StatusServiceUnavailable)
		return
	}
	f.handlers.Add(1)
	defer f.handlers.Done()
	f.seq++
	i := len(f.exchanges)
	f.exchanges = append(f.exchanges, Exchange{Seq: f.seq, Method: r.Method, URL: *r.URL, WatchList: isWatchList(r.URL.Query())})
	watchList := f.exchanges[i].WatchList
	f.mu.Unlock()

	proxy := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(f.target)
			if watchList {
				// The filter reads the stream as sent: let the transport
				// negotiate (and undo) any compression itself.
				pr.Out.Header.Del("Accept-Encoding")
			}
		},
		Transport:     f.transport,
		FlushInterval: -1, // flush after every write: each is at most one watch frame
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, err error) {
			http.Error(w, err.Error(), http.StatusBadGateway)
		},
	}
	if watchList {
		proxy.ModifyResponse = func(resp *http.Response) error { return f.filter(resp, i) }
	}
	proxy.ServeHTTP(w, r)
}

// filter makes the successful response of watch list i drop its
// initial-events-end bookmark, or fails it when it is not JSON.
func (f *BookmarkFilter) filter(resp *http.Response, i int) error {
	if resp.StatusCode != http.StatusOK {
		return nil
	}
	ct := resp.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != runtime.ContentTypeJSON {
		return fmt.Errorf("bookmark filter: the watch list %s was answered with Content-Type %q; the filter reads JSON only (set the client's ContentType and AcceptContentTypes to %s)",
			resp.Request.URL.Path, ct, runtime.ContentTypeJSON)
	}
	resp.Body = newInitialEventsEndFilter(resp.Body, func() { f.dropped(i) })
	return nil
}

// dropped records that watch list i lost its initial-events-end bookmark.
func (f *BookmarkFilter) dropped(i int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seq++
	f.exchanges[i].DroppedAt = f.seq
}
