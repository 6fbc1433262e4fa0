package main

import (
	"io"
	"net/http"
	"strings"
	"sync/atomic"
)

// requestCounts counts the informer's list and watch requests of pods
// (or HTTPRoutes), to tell
// whether a relist happened and by which protocol: a plain list, or a
// watch that streams the initial list (sendInitialEvents=true, client-go's
// WatchListClient), and the bytes their responses brought.
type requestCounts struct {
	lists, watchLists, watches atomic.Int64
	// protobuf counts the responses to those requests that came as
	// protobuf.
	protobuf atomic.Int64
	// bytes counts the body bytes the client read from those responses
	// (as the HTTP transport hands them over: after transparent gzip
	// decompression, which gzipped counts).
	bytes, gzipped atomic.Int64
}

// relists is the number of initial-list requests of either protocol.
func (c *requestCounts) relists() int64 { return c.lists.Load() + c.watchLists.Load() }

// wrap returns a round tripper that counts the GET requests of pods and
// HTTPRoutes through rt, the protobuf responses to them and their body bytes.
func (c *requestCounts) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		pods := req.Method == http.MethodGet && (strings.HasSuffix(req.URL.Path, "/"+resourcePods) || strings.HasSuffix(req.URL.Path, "/"+resourceHTTPRoutes))
		if pods {
			q := req.URL.Query()
			switch {
			case q.Get("watch") == "true" && q.Get("sendInitialEvents") == "true":
				c.watchLists.Add(1)
			case q.Get("watch") == "true":
				c.watches.Add(1)
			default:
				c.lists.Add(1)
			}
		}
		resp, err := rt.RoundTrip(req)
		if err != nil || !pods {
			return resp, err
		}
		if strings.HasPrefix(resp.Header.Get("Content-Type"), contentTypeProtobuf) {
			c.protobuf.Add(1)
		}
		if resp.Uncompressed {
			c.gzipped.Add(1)
		}
		resp.Body = &countingBody{ReadCloser: resp.Body, n: &c.bytes}
		return resp, nil
	})
}

// countingBody adds the bytes read through it to n.
type countingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	k, err := b.ReadCloser.Read(p)
	b.n.Add(int64(k))
	return k, err
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }
