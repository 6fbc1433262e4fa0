package cluster

import (
	"bufio"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
	"k8s.io/client-go/rest"
)

const upstreamToken = "upstream-secret"

// fakeAPIServer answers, for the upstream user only: a watch with the
// frames of a watch list (initial events, their end, a change), in JSON
// unless the query asks for protobuf; a watch that stays open after its
// first frame with hold=true; and any other GET with a JSON list.
func fakeAPIServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+upstreamToken {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		q := r.URL.Query()
		if q.Get("watch") != "true" {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"kind":"WidgetList","items":[]}`)
			return
		}
		ct := "application/json"
		if q.Get("proto") == "true" {
			ct = "application/vnd.kubernetes.protobuf;stream=watch"
		}
		w.Header().Set("Content-Type", ct)
		io.WriteString(w, added1+"\n")
		w.(http.Flusher).Flush()
		if q.Get("hold") == "true" {
			<-r.Context().Done()
			return
		}
		io.WriteString(w, lines(added2, endMark, modified))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func newTestFilter(t *testing.T, upstream string) *BookmarkFilter {
	t.Helper()
	f, err := NewBookmarkFilter(&rest.Config{Host: upstream, BearerToken: upstreamToken})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := f.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return f
}

func TestBookmarkFilterForwardsAndFiltersOnlyWatchLists(t *testing.T) {
	// Registered first, so it runs after every other cleanup.
	t.Cleanup(func() { goleak.VerifyNone(t) })
	f := newTestFilter(t, fakeAPIServer(t).URL)
	client := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(client.CloseIdleConnections)

	tests := []struct {
		name          string
		query         string
		wantStatus    int
		wantBody      string // the whole body, or what it contains for a 502
		wantWatchList bool
		wantDropped   bool
	}{
		{
			name: "a LIST is forwarded with the upstream credentials", query: "limit=500",
			wantStatus: http.StatusOK, wantBody: `{"kind":"WidgetList","items":[]}`,
		},
		{
			name: "a watch without sendInitialEvents passes unchanged", query: "watch=true",
			wantStatus: http.StatusOK, wantBody: lines(added1, added2, endMark, modified),
		},
		{
			name: "a watch list loses its initial-events-end bookmark", query: "watch=true&sendInitialEvents=true",
			wantStatus: http.StatusOK, wantBody: lines(added1, added2, modified),
			wantWatchList: true, wantDropped: true,
		},
		{
			name: "a watch list that is not JSON fails, saying why", query: "watch=true&sendInitialEvents=true&proto=true",
			wantStatus: http.StatusBadGateway, wantBody: "the filter reads JSON only",
			wantWatchList: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(f.Exchanges())
			resp, err := client.Get("http://" + f.Addr() + "/apis/stable.example.com/v1/widgets?" + tt.query)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tt.wantStatus {
				t.Errorf("status %d, want %d (body %q)", resp.StatusCode, tt.wantStatus, body)
			}
			if got := string(body); got != tt.wantBody && (tt.wantStatus == http.StatusOK || !strings.Contains(got, tt.wantBody)) {
				t.Errorf("body:\n%s\nwant:\n%s", got, tt.wantBody)
			}
			ex := f.Exchanges()
			if len(ex) != before+1 {
				t.Fatalf("%d requests recorded, want %d", len(ex), before+1)
			}
			e := ex[before]
			if e.Method != http.MethodGet || e.URL.RawQuery != tt.query || e.WatchList != tt.wantWatchList || (e.DroppedAt > e.Seq) != tt.wantDropped {
				t.Errorf("recorded %+v; want a GET of %q, watch list %t, bookmark dropped %t", e, tt.query, tt.wantWatchList, tt.wantDropped)
			}
			if e.IsList() != (tt.query == "limit=500") {
				t.Errorf("IsList() = %t for %q", e.IsList(), tt.query)
			}
		})
	}
}

// Close ends the watches in flight, and waits for their handlers.
func TestBookmarkFilterCloseEndsWatchesInFlight(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) })
	f := newTestFilter(t, fakeAPIServer(t).URL)
	client := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(client.CloseIdleConnections)
	resp, err := client.Get("http://" + f.Addr() + "/apis/stable.example.com/v1/widgets?watch=true&sendInitialEvents=true&hold=true")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := bufio.NewReader(resp.Body)
	if line, err := r.ReadString('\n'); err != nil || line != added1+"\n" {
		t.Fatalf("first frame %q, %v; want %q", line, err, added1+"\n")
	}
	closed := make(chan error, 1)
	go func() { closed <- f.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Close did not return with a watch in flight")
	}
	if _, err := r.ReadString('\n'); err == nil {
		t.Error("the watch went on after Close")
	}
}
