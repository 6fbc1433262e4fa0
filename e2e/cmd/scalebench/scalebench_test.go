package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/informer-gen/informer-gen/e2e/internal/cluster"
)

// TestMain lets the test binary serve as the benchmark's child process:
// the smoke test re-executes it with the child's flags.
func TestMain(m *testing.M) {
	if isChild(os.Args[1:]) {
		os.Exit(childMain(os.Args[1:], os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}

// smokeEvents is the number of pods the smoke test changes for the CPU per
// watch event.
const smokeEvents = 50

// The whole pipeline at tiny size against a real cluster: every variant
// (JSON clients included) syncs and sees every pod (a sharded one part of
// them: run checks it is exactly its shard's), heaps are
// positive, the watch events were counted, the relist happened, ours
// caches no managedFields while client-go keeps them, controller-runtime's
// cache keeps them on either informer (cr, cr-ours) unless its transform
// strips them (cr-strip), and the section is written between its markers.
func TestScalebenchSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("needs a kube-apiserver (skipped with -short)")
	}
	ctx := t.Context()
	bins, err := cluster.EnsureBinaries(ctx)
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	const n = 200
	start := time.Now()
	res, err := run(ctx, options{
		Pods: n, Namespaces: 5, Workers: 8, Rounds: 1, Variants: allVariants, Changes: 40, Events: smokeEvents,
		Child: []string{exe}, Binaries: bins,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("pipeline took %v", time.Since(start).Round(time.Millisecond))

	if len(res.Managers) < 3 {
		t.Errorf("pods on the server have managedFields of %v, want the three managers", res.Managers)
	}
	for _, v := range allVariants {
		ms := res.PerVariant[v]
		if len(ms) != 1 {
			t.Fatalf("%s: %d measurements, want 1", v, len(ms))
		}
		checkMeasurement(t, v, ms[0], n)
	}

	checkSection(t, res)
}

// The custom-resource pipeline at tiny size: the HTTPRoute CRD installs
// from the Gateway API module, the routes pass the server's strict field
// validation, every httproute-* variant syncs and sees every route over
// JSON (managedFields kept by the project's informer only), and the
// custom-resource section is written between its markers, apart from the
// Pod section.
func TestScalebenchRoutesSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("needs a kube-apiserver (skipped with -short)")
	}
	ctx := t.Context()
	bins, err := cluster.EnsureBinaries(ctx)
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	const n = 100
	res, err := run(ctx, options{
		Pods: n, Namespaces: 4, Workers: 8, Rounds: 1, Variants: routeVariants, Changes: 20, Events: smokeEvents,
		Child: []string{exe}, Binaries: bins,
	})
	if err != nil {
		t.Fatal(err)
	}
	if managers := slices.Sorted(slices.Values(res.Managers)); res.Resource != resourceHTTPRoutes || !slices.Equal(managers, []string{"envoy-gateway (Update, status)", "helm (Update)"}) {
		t.Errorf("resource %q, managedFields of %v; want httproutes written by helm and envoy-gateway's status", res.Resource, res.Managers)
	}
	for _, v := range routeVariants {
		ms := res.PerVariant[v]
		if len(ms) != 1 {
			t.Fatalf("%s: %d measurements, want 1", v, len(ms))
		}
		checkMeasurement(t, v, ms[0], n)
	}
	path := filepath.Join(t.TempDir(), "benchmarks.md")
	if err := os.WriteFile(path, []byte("# Benchmarks\n\n"+sectionStart+"\npods\n"+sectionEnd+"\n\n## Method\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeSection(path, res); err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(doc); !strings.Contains(s, "\npods\n") || !strings.Contains(s, "| httproute-ours-nodecoder |") || strings.Count(s, routeSectionStart) != 1 {
		t.Errorf("the custom-resource section is missing or replaced the Pod section:\n%s", s)
	}
}

// checkSection writes the section of res twice into a document and checks
// it is there once, before "## Method", with its tables.
func checkSection(t *testing.T, res *results) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "benchmarks.md")
	if err := os.WriteFile(path, []byte("# Benchmarks\n\nintro\n\n## Method\n\ntext\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := writeSection(path, res); err != nil {
			t.Fatal(err)
		}
	}
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	if strings.Count(s, sectionStart) != 1 || strings.Count(s, sectionEnd) != 1 {
		t.Fatalf("want exactly one section:\n%s", s)
	}
	if i, j := strings.Index(s, sectionEnd), strings.Index(s, "## Method"); i > j {
		t.Errorf("the section is not before ## Method:\n%s", s)
	}
	for _, want := range []string{"## Real kube-apiserver: memory at scale", "| ours |", "### Scale-out: one replica of N", "| 4 | ours-shard-4 |", "| ours-json |", "| client-go-json |", "| client-go-strip |", "### Goals", "kube-api-access-", "| read-only |", "| decode-only |", "What bounds the time to HasSynced",
		"| cr |", "| cr-strip |", "| cr-ours |", "| / cr |", "cr-ours (controller-runtime with controllerruntime.NewInformer) live heap ≤ 0.35x cr", "cr-ours holds", "sigs.k8s.io/controller-runtime v0."} {
		if !strings.Contains(s, want) {
			t.Errorf("the section lacks %q", want)
		}
	}
}

// checkMeasurement checks what the smoke test wants of variant's
// measurement over n pods.
func checkMeasurement(t *testing.T, v string, m measurement, n int) {
	t.Helper()
	if isFloor(v) {
		checkFloor(t, v, m, n)
		return
	}
	checkObjects(t, v, m, n)
	if m.Synced.SyncSeconds <= 0 || m.Synced.LiveHeap == 0 || m.Synced.HeapAfterSync == 0 || m.Synced.HeapInuse == 0 || m.Done.RelistPeakHeap == 0 || m.Done.RelistPeakLiveHeap == 0 {
		t.Errorf("%s: implausible numbers %+v %+v", v, m.Synced, m.Done)
	}
	checkEventsAndRelist(t, v, m)
	if m.Synced.InitialBytes <= 0 {
		t.Errorf("%s: no response bytes counted for the initial list", v)
	}
	if m.APIServerCPUSeconds < 0 || m.APIServerPeakRSS == 0 {
		t.Errorf("%s: kube-apiserver CPU %v s, peak RSS %d", v, m.APIServerCPUSeconds, m.APIServerPeakRSS)
	}
	checkProtocol(t, v, m, n)
}

// checkFloor checks that floor variant v received all n pods in one
// streamed list, as protobuf, and measured its time and the server's.
func checkFloor(t *testing.T, v string, m measurement, n int) {
	t.Helper()
	if m.Synced.Objects != n || m.Synced.SyncSeconds <= 0 || m.Synced.InitialBytes <= 0 {
		t.Errorf("%s: received %d of %d pods (%d bytes) in %v s", v, m.Synced.Objects, n, m.Synced.InitialBytes, m.Synced.SyncSeconds)
	}
	if m.Synced.InitialWatchLists != 1 || m.Synced.InitialLists != 0 || m.Synced.ProtobufResponses != 1 {
		t.Errorf("%s: %d streamed lists, %d lists, %d protobuf responses; want one protobuf streamed list", v,
			m.Synced.InitialWatchLists, m.Synced.InitialLists, m.Synced.ProtobufResponses)
	}
	if m.APIServerCPUSeconds < 0 || m.APIServerPeakRSS == 0 {
		t.Errorf("%s: kube-apiserver CPU %v s, peak RSS %d", v, m.APIServerCPUSeconds, m.APIServerPeakRSS)
	}
}

// checkObjects checks that variant cached all n pods after sync and
// relist, a sharded variant a part of them (run checked that part against
// the pods' uids).
func checkObjects(t *testing.T, v string, m measurement, n int) {
	t.Helper()
	if _, sharded, _ := variantShard(v); sharded {
		if m.Synced.Objects <= 0 || m.Synced.Objects >= n || m.Done.ObjectsAfter != m.Synced.Objects {
			t.Errorf("%s: cached %d pods after sync and %d after the relist, want a part of %d", v, m.Synced.Objects, m.Done.ObjectsAfter, n)
		}
	} else if m.Synced.Objects != n || m.Done.ObjectsAfter != n {
		t.Errorf("%s: cached %d pods after sync and %d after the relist, want %d", v, m.Synced.Objects, m.Done.ObjectsAfter, n)
	}
}

// checkEventsAndRelist checks that variant's watch events were measured
// and its relist happened and was sampled.
func checkEventsAndRelist(t *testing.T, v string, m measurement) {
	t.Helper()
	_, sharded, _ := variantShard(v)
	if (m.EventCount != smokeEvents && !sharded) || m.EventCount <= 0 || m.EventCount > smokeEvents || m.Events.EventCPUSeconds <= 0 || m.Events.EventSeconds <= 0 {
		t.Errorf("%s: %d watch events took %v CPU-s in %v s, want %d events and positive times", v, m.EventCount, m.Events.EventCPUSeconds, m.Events.EventSeconds, smokeEvents)
	}
	if m.Done.Relists+m.Done.RelistWatchLists == 0 {
		t.Errorf("%s: no list request after the compaction: the relist did not happen", v)
	}
	if m.Done.RelistSamples == 0 {
		t.Errorf("%s: the heap was never sampled during the relist", v)
	}
}

// checkProtocol checks how variant's informer talked to the server and
// what it kept: streamed or paged lists, protobuf or JSON, managedFields.
func checkProtocol(t *testing.T, v string, m measurement, n int) {
	t.Helper()
	if streams := v != variantOursPaged && !strings.HasPrefix(v, variantOursPaged+shardInfix); (m.Synced.InitialWatchLists > 0) != streams || (m.Synced.InitialLists > 0) == streams {
		t.Errorf("%s: %d list and %d streamed-list requests for the first sync, want streamed=%t", v, m.Synced.InitialLists, m.Synced.InitialWatchLists, streams)
	}
	if proto := !strings.HasSuffix(v, variantJSON) && !isRouteVariant(v); (m.Synced.ProtobufResponses > 0) != proto {
		t.Errorf("%s: %d protobuf responses to the first sync's requests, want protobuf=%t", v, m.Synced.ProtobufResponses, proto)
	}
	switch {
	case keepsManagedFields(v):
		if m.Synced.WithManagedFields != n {
			t.Errorf("%s: %d of %d cached pods have managedFields, want all", v, m.Synced.WithManagedFields, n)
		}
	default:
		if m.Synced.WithManagedFields != 0 || m.Done.WithManagedFieldsAfter != 0 {
			t.Errorf("%s: %d cached pods have managedFields after sync, %d after the relist, want none", v, m.Synced.WithManagedFields, m.Done.WithManagedFieldsAfter)
		}
	}
}

func TestSplice(t *testing.T) {
	block := sectionStart + "\nnew\n" + sectionEnd + "\n"
	for _, tc := range []struct{ doc, want string }{
		{"a\n" + sectionStart + "\nold\n" + sectionEnd + "\n\n## Method\n", "a\n" + block + "\n## Method\n"},
		{"a\n\n## Method\nm\n", "a\n\n" + block + "\n## Method\nm\n"},
		{"a\n", "a\n\n" + block},
		{"", block},
	} {
		if got := splice(tc.doc, block); got != tc.want {
			t.Errorf("splice(%q) = %q, want %q", tc.doc, got, tc.want)
		}
	}
}
