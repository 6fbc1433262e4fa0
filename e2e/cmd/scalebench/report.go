package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The markers around the section in docs/benchmarks.md; bench/cmd/benchreport
// carries the block over when it rewrites the rest of the file.
const (
	sectionStart = "<!-- scalebench:start -->"
	sectionEnd   = "<!-- scalebench:end -->"
)

// metric is one measured quantity, read from a variant's measurement.
type metric struct {
	title, unit string
	value       func(m measurement) float64
}

// beyondBaseline is v minus the child's heap before the informer existed.
func beyondBaseline(m measurement, v uint64) float64 {
	return float64(v) - float64(m.Synced.BaselineHeap)
}

var metrics = []metric{
	{"Time until HasSynced", "s", func(m measurement) float64 { return m.Synced.SyncSeconds }},
	{"Heap right after HasSynced (HeapAlloc beyond the baseline)", "MiB", func(m measurement) float64 { return beyondBaseline(m, m.Synced.HeapAfterSync) / (1 << 20) }},
	{"Live heap after sync (HeapAlloc after 2 GCs, beyond the baseline)", "MiB", func(m measurement) float64 { return beyondBaseline(m, m.Synced.LiveHeap) / (1 << 20) }},
	{"HeapInuse after sync and 2 GCs (whole process)", "MiB", func(m measurement) float64 { return mib(m.Synced.HeapInuse) }},
	{"Peak heap during the relist (HeapAlloc beyond the baseline)", "MiB", func(m measurement) float64 { return beyondBaseline(m, m.Done.RelistPeakHeap) / (1 << 20) }},
	{"Relist peak / steady live heap", "ratio", relistRatio},
	{"Relist time (connection restored until the changed pods are cached)", "s", func(m measurement) float64 { return m.Done.RelistSeconds }},
	{"kube-apiserver CPU during the initial sync", "CPU-s", func(m measurement) float64 { return m.APIServerCPUSeconds }},
	{"kube-apiserver peak RSS during the initial sync", "MiB", func(m measurement) float64 { return mib(m.APIServerPeakRSS) }},
	{"Peak live heap during the relist (/gc/heap/live:bytes, the live heap each GC found, beyond the baseline)", "MiB", func(m measurement) float64 {
		return beyondBaseline(m, m.Done.RelistPeakLiveHeap) / (1 << 20)
	}},
	{"Relist peak live heap / steady live heap", "ratio", relistLiveRatio},
	{"Informer CPU per watch event (the child's user+system CPU while the parent changes pods, per changed pod; for ours-shard-N per changed pod of its shard)", "µs", cpuPerEvent},
	metricInitialBytes,
}

// The metrics the goals refer to.
var (
	metricSync           = metrics[0]
	metricLiveHeap       = metrics[2]
	metricRelistRatio    = metrics[5]
	metricRelistLiveRate = metrics[10]
	metricCPUPerEvent    = metrics[11]
	metricAPIServerCPU   = metrics[7]
	metricAPIServerRSS   = metrics[8]
)

// cpuPerEvent is the child's CPU time per watch event, in µs.
func cpuPerEvent(m measurement) float64 {
	if m.EventCount == 0 {
		return 0
	}
	return m.Events.EventCPUSeconds / float64(m.EventCount) * 1e6
}

func relistLiveRatio(m measurement) float64 {
	steady := beyondBaseline(m, m.Synced.LiveHeap)
	if steady <= 0 || m.Done.RelistPeakLiveHeap == 0 {
		return 0
	}
	return beyondBaseline(m, m.Done.RelistPeakLiveHeap) / steady
}

func relistRatio(m measurement) float64 {
	steady := beyondBaseline(m, m.Synced.LiveHeap)
	if steady <= 0 {
		return 0
	}
	return beyondBaseline(m, m.Done.RelistPeakHeap) / steady
}

// series is one value per round.
type series []float64

func (s series) median() float64 {
	if len(s) == 0 {
		return 0
	}
	v := slices.Clone(s)
	slices.Sort(v)
	if n := len(v); n%2 == 1 {
		return v[n/2]
	} else {
		return (v[n/2-1] + v[n/2]) / 2
	}
}

// summary is "median (min–max)", or just the value for one round.
func (s series) summary() string {
	if len(s) == 0 {
		return "–"
	}
	if len(s) == 1 {
		return format(s[0])
	}
	return fmt.Sprintf("%s (%s–%s)", format(s.median()), format(slices.Min(s)), format(slices.Max(s)))
}

// ratios divides per round.
func ratios(a, b series) series {
	var r series
	for i := range min(len(a), len(b)) {
		if b[i] != 0 {
			r = append(r, a[i]/b[i])
		}
	}
	return r
}

func format(v float64) string {
	switch a := max(v, -v); {
	case a >= 1000:
		return fmt.Sprintf("%.0f", v)
	case a >= 100:
		return fmt.Sprintf("%.1f", v)
	case a >= 1:
		return fmt.Sprintf("%.2f", v)
	default:
		return fmt.Sprintf("%.3f", v)
	}
}

// values returns metric m of variant per round.
func (r *results) values(variant string, m metric) series {
	var s series
	for _, x := range r.PerVariant[variant] {
		s = append(s, m.value(x))
	}
	return s
}

// goal is one line of the goal table: the per-round ratio of metric of
// variant to that of peer must not exceed limit.
type goal struct {
	text          string
	variant, peer string
	metric        metric
	limit         float64
	// difference compares variant - peer with limit instead of the ratio.
	difference bool
}

// ratio returns the goal's ratio (or difference) per round.
func (g goal) ratio(r *results) series {
	if g.peer == "" {
		return r.values(g.variant, g.metric)
	}
	a, b := r.values(g.variant, g.metric), r.values(g.peer, g.metric)
	if !g.difference {
		return ratios(a, b)
	}
	return differences(a, b)
}

// missing returns the first variant the goal needs that the run did not
// measure, or "".
func (g goal) missing(r *results) string {
	for _, v := range []string{g.variant, g.peer} {
		if v != "" && len(r.PerVariant[v]) == 0 {
			return v
		}
	}
	return ""
}

// goals are those of issue 21 (memory of ours with its defaults, and
// compaction costing at most 10% in time: "today's" is ours-uncompacted)
// and the earlier time-to-sync goals against client-go.
var goals = []goal{
	{"ours default live heap ≤ 0.30x client-go default", variantOurs, variantClientGo, metricLiveHeap, 0.30, false},
	{"ours default live heap ≤ 0.40x client-go-strip (client-go with a managedFields-stripping transform)", variantOurs, variantClientGoStrip, metricLiveHeap, 0.40, false},
	{"ours relist peak ≤ 1.3x ours steady heap (live heap the GCs found)", variantOurs, "", metricRelistLiveRate, 1.3, false},
	{"ours relist peak ≤ 1.3x ours steady heap (HeapAlloc, garbage included)", variantOurs, "", metricRelistRatio, 1.3, false},
	{"ours time to HasSynced within 10% of ours without compaction (≤ 1.10x ours-uncompacted)", variantOurs, variantOursUncompacted, metricSync, 1.10, false},
	{"ours CPU per watch event within 10% of ours without compaction, protobuf (the default; ≤ 1.10x ours-uncompacted)", variantOurs, variantOursUncompacted, metricCPUPerEvent, 1.10, false},
	{"ours CPU per watch event within 10% of ours without compaction, JSON (≤ 1.10x ours-uncompacted-json)", variantOursJSON, variantOursUncompactedJSON, metricCPUPerEvent, 1.10, false},
	{"compaction ≤ 30 µs per Pod: ours' CPU per watch event minus ours-uncompacted's (µs, protobuf)", variantOurs, variantOursUncompacted, metricCPUPerEvent, 30, true},
	// Issue 32: JSON against JSON on Pods.
	{"ours-json CPU per watch event ≤ 0.5x client-go-json (JSON against JSON)", variantOursJSON, variantClientGoJSON, metricCPUPerEvent, 0.5, false},
	// Issue 32: what the generated decoders save, protobuf and JSON.
	{"generated decoders: ours CPU per watch event ≤ 1.0x ours-nodecoder (protobuf)", variantOurs, variantOursNoDecoder, metricCPUPerEvent, 1.0, false},
	{"generated decoders: ours-json CPU per watch event ≤ 1.0x ours-nodecoder-json (JSON)", variantOursJSON, variantOursNoDecoderJSON, metricCPUPerEvent, 1.0, false},
	// Issue 34: the compaction guard's cost, ours (guard on, the default)
	// against ours-noguard.
	{"compaction guard: ours CPU per watch event ≤ 1.05x ours-noguard", variantOurs, variantOursNoGuard, metricCPUPerEvent, 1.05, false},
	{"compaction guard: ours live heap ≤ 1.02x ours-noguard", variantOurs, variantOursNoGuard, metricLiveHeap, 1.02, false},
	{"ours time to HasSynced ≤ 0.9x client-go", variantOurs, variantClientGo, metricSync, syncGoal, false},
	{"ours with paged lists (WithoutWatchList): time to HasSynced ≤ 0.9x client-go", variantOursPaged, variantClientGo, metricSync, syncGoal, false},
	// Issue 31: controller-runtime's cache with NewInformer from package
	// controllerruntime against its default and its stripping transform.
	{"cr-ours (controller-runtime with controllerruntime.NewInformer) live heap ≤ 0.35x cr (controller-runtime's default cache)", variantCROurs, variantCR, metricLiveHeap, 0.35, false},
	{"cr-ours live heap ≤ 0.45x cr-strip (controller-runtime with TransformStripManagedFields; cr-ours keeps managedFields)", variantCROurs, variantCRStrip, metricLiveHeap, 0.45, false},
	{"cr-ours-strip (NewInformer and TransformStripManagedFields) live heap ≤ 0.45x cr-strip", variantCROursStrip, variantCRStrip, metricLiveHeap, 0.45, false},
	{"cr-ours time to WaitForCacheSync ≤ 0.9x cr", variantCROurs, variantCR, metricSync, syncGoal, false},
	{"cr-ours CPU per watch event ≤ 1.1x cr", variantCROurs, variantCR, metricCPUPerEvent, 1.1, false},
	{"cr-ours relist peak ≤ 1.3x cr-ours steady heap (live heap the GCs found)", variantCROurs, "", metricRelistLiveRate, 1.3, false},
	{"cr-ours relist peak ≤ 1.3x cr-ours steady heap (HeapAlloc, garbage included)", variantCROurs, "", metricRelistRatio, 1.3, false},
}

// syncGoal is the most of client-go's time to HasSynced ours may take
// (issue 19).
const syncGoal = 0.9

// goalNotes explains what bounds the measured goals, with the numbers of
// this run.
func goalNotes(r *results) string {
	paged := "ours-paged was not run"
	if ms := r.PerVariant[variantOursPaged]; len(ms) > 0 {
		paged = fmt.Sprintf("ours-paged made %d paged list requests (see the checks below)", ms[0].Synced.InitialLists)
	}
	return fmt.Sprintf("How to read the goals. %s%s"+
		"The relist peak is `HeapAlloc`, garbage not yet collected included (what a process's memory sees): "+
		"while a relist decodes the new list, the old cache is still alive, so the live heap alone approaches twice the steady heap, "+
		"and with the default GOGC=100 a collection may wait until the heap doubles. "+
		"The time to HasSynced depends on the protocol: client-go v0.37 and ours (by default) stream the initial list with one watch; "+
		"%s.\n%s", stripNote(r), syncBound(r), paged, crNotes(r))
}

// stripNote compares ours with client-go-strip, when both ran: the saving
// beyond stripping managedFields.
func stripNote(r *results) string {
	live := metricLiveHeap
	if len(r.PerVariant[variantOurs]) == 0 || len(r.PerVariant[variantClientGoStrip]) == 0 {
		return "Ours against client-go-strip: not measured, as ours or client-go-strip was not run. "
	}
	strip := ratios(r.values(variantOurs, live), r.values(variantClientGoStrip, live)).median()
	if len(r.PerVariant[variantOursUncompacted]) == 0 {
		return fmt.Sprintf("Ours holds %sx the live heap of client-go-strip: the saving over client-go "+
			"is the stripped managedFields, and the rest of the heap is the decoded Pods, which both runtimes hold alike. ", format(strip))
	}
	unc := ratios(r.values(variantOursUncompacted, live), r.values(variantClientGoStrip, live)).median()
	return fmt.Sprintf("Ours holds %sx the live heap of client-go-strip, ours without compaction %sx: the saving over client-go-strip "+
		"is what interning and sharing save on these Pods, whose per-Pod volume and names leave whole containers unshared. ", format(strip), format(unc))
}

// crNotes explains the controller-runtime goals with the numbers of this
// run, when cr and cr-ours ran.
func crNotes(r *results) string {
	if len(r.PerVariant[variantCR]) == 0 || len(r.PerVariant[variantCROurs]) == 0 {
		return ""
	}
	live := metricLiveHeap
	ours, cr := r.values(variantCROurs, live), r.values(variantCR, live)
	b := fmt.Sprintf("\ncontroller-runtime (issue 31): cr-ours holds %sx the live heap of cr", format(ratios(ours, cr).median()))
	if len(r.PerVariant[variantCRStrip]) > 0 {
		b += fmt.Sprintf(" and %sx that of cr-strip, whose transform is the lever controller-runtime offers", format(ratios(ours, r.values(variantCRStrip, live)).median()))
	}
	b += ". cr-ours keeps managedFields, as controller-runtime does (a user drops them with the same transform), " +
		"so its saving is compaction alone: against cr it has the same objects to hold, against cr-strip more; " +
		"the FieldsV1 bytes of managedFields name each Pod's own token volume, IP and container IDs, so compaction shares little of them. "
	if len(r.PerVariant[variantCROursStrip]) > 0 && len(r.PerVariant[variantCRStrip]) > 0 {
		b += fmt.Sprintf("With the stripping transform on both sides, cr-ours-strip holds %sx the live heap of cr-strip. ",
			format(ratios(r.values(variantCROursStrip, live), r.values(variantCRStrip, live)).median()))
	}
	if len(r.PerVariant[variantOurs]) > 0 {
		b += fmt.Sprintf("ours (informer-gen's own factory, which drops managedFields by default) holds %sx cr's live heap. ",
			format(ratios(r.values(variantOurs, live), cr).median()))
	}
	return b + "The time of the cr variants is until controller-runtime's `WaitForCacheSync` returns: it polls `HasSynced` every 100 ms " +
		"(client-go's `WaitForCacheSync`), so it is up to 100 ms later than the informer's sync; the other variants poll every ms.\n"
}

// floorMetric reports whether m is measured for the floor variants: those
// of the initial sync that do not read an informer's cache.
func floorMetric(m metric) bool {
	switch m.title {
	case metricSync.title, metricAPIServerCPU.title, metricAPIServerRSS.title, metricInitialBytes.title:
		return true
	}
	return false
}

// syncBound says, when the floor variants ran, how much of the time to
// HasSynced the server and the decoding take and how much each informer's
// keeping adds: the medians of the per-round differences to decode-only.
func syncBound(r *results) string {
	if len(r.PerVariant[variantReadOnly]) == 0 || len(r.PerVariant[variantDecodeOnly]) == 0 || len(r.PerVariant[variantClientGo]) == 0 {
		return ""
	}
	sync := func(v string) series { return r.values(v, metricSync) }
	cg, decode := sync(variantClientGo), sync(variantDecodeOnly)
	added := func(v string) string {
		return format(differences(sync(v), decode).median())
	}
	var budget series
	for i := range min(len(cg), len(decode)) {
		budget = append(budget, syncGoal*cg[i]-decode[i])
	}
	b := fmt.Sprintf("What bounds the time to HasSynced: kube-apiserver, etcd and the client share the machine's cores, and a client that "+
		"only reads the streamed list (read-only) reached its end in %s s (%sx client-go), one that decodes it with client-go and keeps nothing "+
		"(decode-only) in %s s (%sx client-go). What an informer adds is keeping the objects (its store, and collecting the garbage of a heap "+
		"that grows with them), less what it saves on decoding (ours decodes the stream itself, without client-go's two copies of each object): "+
		"client-go adds %s s to decode-only",
		format(sync(variantReadOnly).median()), format(ratios(sync(variantReadOnly), cg).median()),
		format(decode.median()), format(ratios(decode, cg).median()), added(variantClientGo))
	for _, v := range []string{variantOurs, variantOursUncompacted} {
		if len(r.PerVariant[v]) > 0 {
			b += fmt.Sprintf(", %s %s s", v, added(v))
		}
	}
	return b + fmt.Sprintf("; for ours to take at most %gx client-go's time it may add %s s. ", syncGoal, format(budget.median()))
}

// differences returns a - b per round.
func differences(a, b series) series {
	var d series
	for i := range min(len(a), len(b)) {
		d = append(d, a[i]-b[i])
	}
	return d
}

// populationText describes the Pods the benchmark writes (populate.go,
// layout.go, pod.go).
const populationText = "**Input: Pods shaped like a real cluster's.** The Pods of a namespace belong to ReplicaSets whose sizes are drawn " +
	"(seeded, so every run writes the same Pods) from 1, 2, 3, 5, 10 and 30 with weights 40, 20, 15, 12, 9 and 4 (in ReplicaSets): " +
	"most Deployments run one to three replicas and a few run tens, so the mean ReplicaSet has 3.95 Pods, about 10% of the Pods are alone " +
	"in theirs and about 30% are in one of 30. One ReplicaSet is one Deployment's template: its Pods share the labels, owner reference, " +
	"containers (one image tag per container; 4 sizes of requests and limits over the Deployments; a log shipper in every third), env, probes, ports, " +
	"tolerations and security context; the service-mesh sidecar's image is the same cluster-wide. " +
	"What a Pod has of its own is what a real cluster gives it: its name (`<replicaset>-<5 random characters>`), " +
	"a `kube-api-access-<5 random characters>` projected volume (a serviceAccountToken, the `kube-root-ca.crt` ConfigMap and the namespace " +
	"through the downward API, as the ServiceAccount admission plugin adds it) mounted in every container, so no whole container or volume " +
	"list repeats between Pods; its pod IP, node, container IDs and its times: each ReplicaSet was rolled out at its own second of a month, " +
	"its Pods started within a minute of that, and each Pod's conditions, start time and container start times are seconds apart " +
	"from its own start (the server sets `creationTimestamp`). "

// methodText is the method paragraph and the list of variants.
func methodText(r *results) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("**Method.** One etcd and kube-apiserver (built from the pinned sources by `hack/kube-binaries.sh`) run on 127.0.0.1 with ")
	p("`--watch-cache=false`, so that lists are served by etcd and a watch from a compacted resourceVersion fails with 410 Gone. ")
	p("The pods are written as a cluster's components write them: created by a ReplicaSet-controller-like client ")
	p("(labels `app`/`pod-template-hash`, a ReplicaSet owner reference, 2–3 containers with env, resources, ports, probes, ")
	p("volume mounts, fieldManager `kube-controller-manager`), marked unschedulable at first and then bound through the binding subresource (`kube-scheduler`, status subresource: the binding records no manager), ")
	p("and given a Running status with conditions, container statuses and pod IPs through the status subresource (`kubelet`). ")
	p("Each variant runs in a fresh child process (the same binary re-executed), one shared pod informer with its runtime's defaults, ")
	p("reaching the API server through a TCP proxy the parent owns. The child times `Start` until `HasSynced` (polled every ms), ")
	p("reads `HeapAlloc` right after, then again after two forced GCs (the live heap); heap values are given beyond the child's ")
	p("baseline (its live heap before the informer existed, about %s MiB). ", baselineSummary(r))
	p("Then the parent changes %d pods (a new label value each, from concurrent writers: one Modified watch event each) while the child ", r.Events)
	p("counts its own user+system CPU time (getrusage) from the parent's signal until the last change is in its cache, blocked meanwhile; ")
	p("the CPU per watch event is that time over the number of changed pods (the parent's writing, not the informer, bounds the events/s a real server delivers, so the CPU is reported instead). ")
	p("Then the parent cuts the proxy, changes %s pods, compacts etcd and restores the proxy: the informer's watch gets ", changesText(r))
	p("410 Gone and it relists; the child samples `HeapAlloc` and the live heap the last GC found (`/gc/heap/live:bytes`) every 5 ms from the restore until the changed pods are in its cache ")
	p("and counts the list requests, so a relist is verified to have happened. Around each initial sync the parent reads ")
	p("kube-apiserver's utime+stime from `/proc/<pid>/stat` and its peak RSS (%s). ", rssMethod(r))
	p("Medians over the rounds with the spread (min–max); ratios are computed per round.\n\n")
	p("%s\n\n", populationText)
	p("Variants: **client-go** `informers.NewSharedInformerFactory(cs, 0).Core().V1().Pods().Informer()`; ")
	p("**client-go-strip** the same with `informers.WithTransform` clearing managedFields; **ours** the Pod informer informer-gen generates for k8s.io/api/core/v1 ")
	p("(`internal/corev1gen`), from `factory.New()` + `InformerFor(&corev1.Pod{}, …)` as its generated factory builds it: its watches decode the protobuf stream themselves ")
	p("(`protowatch.Watcher`: each object decoded once, from its frame), managedFields dropped and cached objects compacted by default (strings interned, repeated parts shared, ")
	p("by the generated walks); ")
	p("**ours-uncompacted** the same with `factory.WithoutCompaction()` (objects cached as decoded: the runtime before issue 21); ")
	p("**ours-nodecoder** the same with `factory.WithoutGeneratedDecoders()` (lists and watches decoded through the typed client, as client-go decodes them, then compacted by the walks); ")
	p("every variant but the **-json** ones talks protobuf (`%s`): client-go v0.37's clientset asks for it for built-in types unless `rest.Config.ContentType` is set, ", contentTypeProtobuf)
	p("and the metadata client always does; a **-json** suffix is the same variant with `ContentType` and `AcceptContentTypes` `application/json`; ")
	p("**ours-paged** ours with `factory.WithoutWatchList()`, listing in pages instead of streaming the initial list (ours and client-go v0.37 stream by default); ")
	p("**ours-noguard** ours with the compaction guard off (`INFORMER_GEN_COMPACTION_GUARD=false`; ours runs it, as every compacting informer outside test binaries does); ")
	p("**ours-metadata** `factory.MetadataInformerFor` over client-go's metadata client (what a generated factory's `ForMetadata` returns: ")
	p("`*metav1.PartialObjectMetadata`, managedFields dropped); **client-go-metadata** ")
	p("client-go's `metadatainformer`; **read-only** and **decode-only** are no informers but the floor under them (`floor.go`): one watch of every pod ")
	p("with the options client-go's reflector streams its initial list with, until the initial-events-end bookmark, keeping nothing; read-only reads the protobuf frames ")
	p("and decodes none (the pace of kube-apiserver and the connection), decode-only decodes every event with client-go's typed watch and drops it ")
	p("(that pace plus client-go's decoding); they measure the initial sync only. **ours-shard-N** ours holding replica 0's shard of N (see Scale-out below). ")
	p("**cr** controller-runtime v0.25's cache (`cache.New` with client-go's scheme, `GetInformer(ctx, &corev1.Pod{})`, timed from `Start` until `WaitForCacheSync` returns), ")
	p("its defaults otherwise (client-go's shared informer, protobuf for built-in types, managedFields kept); **cr-strip** the same with ")
	p("`DefaultTransform: cache.TransformStripManagedFields()`; **cr-ours** the same with `NewInformer: controllerruntime.NewInformer` (informer-gen's informer ")
	p("under controller-runtime's cache, compacting with the walks of `controllerruntime/kubeapi`, managedFields kept); **cr-ours-strip** cr-ours with cr-strip's transform; their objects are read from the ")
	p("informer's store, as the other variants' are. %s\n\n", protocolNote(r))
	return b.String()
}

// section renders the Markdown section, markers included.
func section(r *results) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("%s\n## Real kube-apiserver: memory at scale\n\n", sectionStart)
	p("Written by `e2e/cmd/scalebench` (`SCALE=1 ./hack/bench.sh`); benchreport keeps this section as is.\n\n")
	p("- Date: %s\n", r.Started.UTC().Format("2006-01-02 15:04 MST"))
	p("- Machine: %s, %d cores (GOMAXPROCS %d), %s RAM", cpuModel(), runtime.NumCPU(), runtime.GOMAXPROCS(0), memTotal())
	if len(r.LoadAverages) > 0 {
		p("; load average (1, 5, 15 min) %s", loadText(r))
	}
	p("\n")
	commit := r.Commit
	if commit == "" {
		commit = gitCommit()
	}
	p("- Go: %s; commit %s; peer k8s.io/client-go v0.37.2%s\n", runtime.Version(), commit, crPeer(r))
	p("- Input: %d Pods in %d namespaces, created in %s; %d round(s), every variant once per round, the order reversing each round; total %s\n",
		r.Pods, r.Namespaces, (time.Duration(r.PopulateSeconds * float64(time.Second))).Round(time.Second), r.Rounds, r.Duration.Round(time.Second))
	p("- managedFields of every pod on the server: %s\n\n", strings.Join(r.Managers, ", "))

	p("%s", methodText(r))
	p("%s", metricTables(r))

	p("%s", goalTable(r, goals))
	p("\n%s", goalNotes(r))
	p("\n%s", scaleOutSection(r))
	p("\n### Checks\n\n| Variant | Cached pods after sync / after relist | Cached pods with managedFields | Initial list requests (list / streamed) | Protobuf responses (pod requests until synced) | Relist requests (list / streamed) | Watch events for the CPU measure |\n|---|---|---|---|---|---|---|\n")
	for _, v := range r.Variants {
		ms := r.PerVariant[v]
		if len(ms) == 0 {
			continue
		}
		m := ms[len(ms)-1]
		if isFloor(v) {
			p("| %s | %d received, none kept | – | – / %d | %d | – | – |\n", v, m.Synced.Objects, m.Synced.InitialWatchLists, m.Synced.ProtobufResponses)
			continue
		}
		p("| %s | %d / %d | %d | %d / %d | %d | %d / %d | %d |\n", v, m.Synced.Objects, m.Done.ObjectsAfter, m.Synced.WithManagedFields,
			m.Synced.InitialLists, m.Synced.InitialWatchLists, m.Synced.ProtobufResponses, m.Done.Relists, m.Done.RelistWatchLists, m.EventCount)
	}
	p("\n(last round shown)\n%s\n", sectionEnd)
	return b.String()
}

// goalTable renders the table of goals gs as measured in r, "not
// measured" for a goal whose variants did not run.
func goalTable(r *results, gs []goal) string {
	var b strings.Builder
	b.WriteString("### Goals\n\n| Goal | Measured (median of the per-round ratios, or differences) | Met |\n|---|---|---|\n")
	for _, g := range gs {
		if v := g.missing(r); v != "" {
			fmt.Fprintf(&b, "| %s | not measured: %s was not run | – |\n", g.text, v)
			continue
		}
		s := g.ratio(r)
		met := "no"
		if len(s) > 0 && s.median() <= g.limit {
			met = "yes"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", g.text, s.summary(), met)
	}
	return b.String()
}

// crPeer names the controller-runtime version the cr variants ran on,
// when they ran.
func crPeer(r *results) string {
	for _, v := range crVariants {
		if len(r.PerVariant[v]) > 0 {
			return "; sigs.k8s.io/controller-runtime " + moduleVersion("sigs.k8s.io/controller-runtime")
		}
	}
	return ""
}

// moduleVersion is the version of module path this binary was built
// with, "(unknown version)" without build information.
func moduleVersion(path string) string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, d := range info.Deps {
			if d.Path == path {
				return d.Version
			}
		}
	}
	return "(unknown version)"
}

// metricTables renders one table per metric: every variant's value and
// its ratios to client-go and client-go-strip, and to cr (controller-runtime's
// default cache) when cr ran.
func metricTables(r *results) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	withCR := len(r.PerVariant[variantCR]) > 0
	for _, m := range metrics {
		p("### %s (%s)\n\n", m.title, m.unit)
		if withCR {
			p("| Variant | Value | / client-go | / client-go-strip | / cr |\n|---|---|---|---|---|\n")
		} else {
			p("| Variant | Value | / client-go | / client-go-strip |\n|---|---|---|---|\n")
		}
		cg, cgs, cr := r.values(variantClientGo, m), r.values(variantClientGoStrip, m), r.values(variantCR, m)
		for _, v := range r.Variants {
			if isFloor(v) && !floorMetric(m) {
				continue
			}
			s := r.values(v, m)
			p("| %s | %s | %s | %s |", v, s.summary(), ratioCell(s, cg), ratioCell(s, cgs))
			if withCR {
				p(" %s |", ratioCell(s, cr))
			}
			p("\n")
		}
		p("\n")
	}
	return b.String()
}

func ratioCell(s, peer series) string {
	r := ratios(s, peer)
	if len(r) == 0 {
		return "–"
	}
	return r.summary()
}

func baselineSummary(r *results) string {
	var s series
	for _, ms := range r.PerVariant {
		for _, m := range ms {
			s = append(s, mib(m.Synced.BaselineHeap))
		}
	}
	return format(s.median())
}

func changesText(r *results) string {
	return strconv.Itoa(r.Changes)
}

func rssMethod(r *results) string {
	for _, ms := range r.PerVariant {
		for _, m := range ms {
			if m.RSSMethod != rssByHWM {
				return m.RSSMethod + ": clear_refs was not permitted"
			}
		}
	}
	return "`VmHWM` after writing 5 to `/proc/<pid>/clear_refs`"
}

// protocolNote says how client-go made its initial list: its
// WatchListClient feature (on by default in v0.37) streams it with a watch
// when the server allows.
func protocolNote(r *results) string {
	ms := r.PerVariant[variantClientGo]
	if len(ms) == 0 {
		return ""
	}
	m := ms[0]
	if m.Synced.InitialWatchLists > 0 && m.Synced.InitialLists == 0 {
		return "client-go streamed its initial list (WatchListClient, on by default in v0.37), as ours does by default."
	}
	if m.Synced.InitialWatchLists > 0 {
		return "client-go tried to stream its initial list (WatchListClient, on by default in v0.37) and fell back to a paged list."
	}
	return "client-go listed in pages."
}

// writeSection puts the section into the file at path: in place of the
// marked block, else before "## Method", else at the end.
func writeSection(path string, r *results) error {
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	if r.Resource == resourceHTTPRoutes {
		return os.WriteFile(path, []byte(spliceBetween(string(old), routeSection(r), routeSectionStart, routeSectionEnd)), 0o644)
	}
	return os.WriteFile(path, []byte(splice(string(old), section(r))), 0o644)
}

// splice returns doc with block (markers included, ending in a newline)
// in place of its marked block, else before its "## Method" heading, else
// appended.
func splice(doc, block string) string {
	return spliceBetween(doc, block, sectionStart, sectionEnd)
}

// spliceBetween is splice for the block marked by start and end.
func spliceBetween(doc, block, sectionStart, sectionEnd string) string {
	if i := strings.Index(doc, sectionStart); i >= 0 {
		if j := strings.Index(doc[i:], sectionEnd); j >= 0 {
			rest := strings.TrimPrefix(doc[i+j+len(sectionEnd):], "\n")
			return doc[:i] + block + rest
		}
	}
	if i := strings.Index(doc, "\n## Method\n"); i >= 0 {
		return doc[:i+1] + block + "\n" + doc[i+1:]
	}
	if doc != "" && !strings.HasSuffix(doc, "\n\n") {
		doc = strings.TrimRight(doc, "\n") + "\n\n"
	}
	return doc + block
}

// cpuModel is the first "model name" of /proc/cpuinfo.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if k, v, ok := strings.Cut(s.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

// memTotal is MemTotal of /proc/meminfo in GiB.
func memTotal() string {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
			if kb, err := strconv.ParseFloat(f[1], 64); err == nil {
				return fmt.Sprintf("%.0f GiB", kb/(1<<20))
			}
		}
	}
	return "unknown"
}

// gitCommit is the short HEAD commit, marked when the tree has changes.
func gitCommit() string {
	out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	c := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(strings.TrimSpace(string(st))) > 0 {
		c += " (with uncommitted changes)"
	}
	return c
}
