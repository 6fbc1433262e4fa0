package chaos

import (
	"encoding/json"
	"net/http"
	"runtime"
	"time"
)

// Report is a replica's state as its debug endpoint serves it (GET
// /report; ?gc=1 collects garbage first, so HeapAlloc is the live heap).
type Report struct {
	Identity string `json:"identity"`
	// Held is what the replica's informers may hold (ring.Ranges.String).
	Held string `json:"held"`
	// Caches maps each informer (Informer* names) to its cache as
	// namespace/name -> resourceVersion.
	Caches     map[string]map[string]string `json:"caches"`
	HeapAlloc  uint64                       `json:"heapAlloc"`
	Goroutines int                          `json:"goroutines"`
}

// newDebugHandler serves /report and /slow?delay=<duration> (every
// handler of the replica sleeps delay per notification; 0 ends it).
func newDebugHandler(identity string, infs *replicaInformers, target *journaledTarget) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /report", func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Query().Get("gc") == "1" {
			runtime.GC()
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		rep := Report{Identity: identity, Held: target.Held().String(), Caches: infs.versions(),
			HeapAlloc: ms.HeapAlloc, Goroutines: runtime.NumGoroutine()}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(rep)
	})
	mux.HandleFunc("POST /slow", func(w http.ResponseWriter, req *http.Request) {
		d, err := time.ParseDuration(req.URL.Query().Get("delay"))
		if err != nil {
			http.Error(w, "slow: delay: "+err.Error(), http.StatusBadRequest)
			return
		}
		infs.slow.Store(int64(d))
	})
	return mux
}
