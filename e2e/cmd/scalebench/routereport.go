package main

import (
	"fmt"
	"runtime"
	"strings"
	"time"
)

// The markers around the custom-resource section in docs/benchmarks.md.
const (
	routeSectionStart = "<!-- scalebench-httproutes:start -->"
	routeSectionEnd   = "<!-- scalebench-httproutes:end -->"
)

// routeGoals are issue 32's goals on custom resources over JSON (ours
// with its defaults against the project's own generated informer), and
// what compaction and the generated decoder each contribute.
var routeGoals = []goal{
	{"httproute-ours informer CPU per watch event ≤ 0.4x httproute-client-go", variantRouteOurs, variantRouteClientGo, metricCPUPerEvent, 0.4, false},
	{"httproute-ours time to HasSynced ≤ 0.7x httproute-client-go", variantRouteOurs, variantRouteClientGo, metricSync, 0.7, false},
	{"httproute-ours live heap ≤ 0.35x httproute-client-go", variantRouteOurs, variantRouteClientGo, metricLiveHeap, 0.35, false},
	{"compaction: httproute-ours CPU per watch event ≤ 1.10x httproute-ours-uncompacted", variantRouteOurs, variantRouteOursUncompacted, metricCPUPerEvent, 1.10, false},
	{"generated decoder: httproute-ours CPU per watch event ≤ 1.0x httproute-ours-nodecoder", variantRouteOurs, variantRouteOursNoDecoder, metricCPUPerEvent, 1.0, false},
}

// routeInputText describes the HTTPRoutes the benchmark writes
// (httproute.go, routes.go).
const routeInputText = "**Input: HTTPRoutes as a cluster holds them.** The CRD is the Gateway API project's own " +
	"(`" + httpRouteCRDFile + "` of the module, its structural schema with its CEL rules, installed as shipped); every route is created " +
	"with `fieldValidation=Strict`, so a field the schema does not have fails the run. Each route is one app's, written by Helm from the app's chart " +
	"(field manager `helm`: the chart's `app.kubernetes.io/*` and `helm.sh/chart` labels, the `meta.helm.sh/release-*` annotations, no owner " +
	"reference, as Helm sets none): attached to the cluster's shared Gateway's `https` listener, one hostname of its own, one to three rules " +
	"(an API prefix with a header filter and a request timeout, static assets with a prefix rewrite, the web front end split 90/10 with a canary), " +
	"the server's schema defaults filled in. The Gateway implementation (Envoy Gateway: field manager `envoy-gateway`, status subresource) " +
	"writes its status: the one parent with the Accepted and ResolvedRefs conditions at the route's own time. The objects are built from the " +
	"project's Go types (`sigs.k8s.io/gateway-api/apis/v1`).\n\n"

// routeVariantsText describes the custom-resource variants.
const routeVariantsText = "**Variants** (all over JSON: kube-apiserver serves custom resources in JSON, and CBOR is not on here): " +
	"**httproute-client-go** is the Gateway API project's own generated informer (`sigs.k8s.io/gateway-api/pkg/client/informers`, " +
	"client-go's shared informer over the project's generated clientset) with its factory's defaults, managedFields kept; " +
	"**httproute-ours** is informer-gen's HTTPRoute informer generated for the same types (`e2e/internal/gatewayapigen`, `--json-decoders`) " +
	"with `runtime/factory`'s defaults (watches decoded by the generated decoder, cached objects compacted by the generated walks, managedFields dropped, " +
	"as ours drops them by default); **httproute-ours-uncompacted** the same with `factory.WithoutCompaction`; **httproute-ours-nodecoder** the " +
	"same with `factory.WithoutGeneratedDecoders` (watch events decoded through the typed client, as client-go decodes them), compaction on. " +
	"The measurements are those of the Pod section above (one child process per variant and round, the same phases); where a metric's title says " +
	"pods, read HTTPRoutes.\n\n"

// routeSection renders the custom-resource section, markers included.
func routeSection(r *results) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("%s\n## Real kube-apiserver: custom resources (HTTPRoutes over JSON)\n\n", routeSectionStart)
	p("Written by `go run ./cmd/scalebench -pods %d -namespaces %d -rounds %d -events %d -changes %d -variants %s` (from `e2e/`); benchreport keeps this section as is.\n\n",
		r.Pods, r.Namespaces, r.Rounds, r.Events, r.Changes, strings.Join(r.Variants, ","))
	p("- Date: %s\n", r.Started.UTC().Format("2006-01-02 15:04 MST"))
	p("- Machine: %s, %d cores (GOMAXPROCS %d), %s RAM; load average (1, 5, 15 min) %s\n", cpuModel(), runtime.NumCPU(), runtime.GOMAXPROCS(0), memTotal(), loadText(r))
	p("%s", loadNote(r))
	p("- Go: %s; commit %s; peers k8s.io/client-go v0.37.2, %s %s\n", runtime.Version(), r.Commit, gatewayAPIModule, moduleVersion(gatewayAPIModule))
	p("- Input: %d HTTPRoutes in %d namespaces, created in %s; %d round(s), every variant once per round, the order reversing each round; total %s\n",
		r.Pods, r.Namespaces, (time.Duration(r.PopulateSeconds * float64(time.Second))).Round(time.Second), r.Rounds, r.Duration.Round(time.Second))
	p("- managedFields of every route on the server: %s\n", strings.Join(r.Managers, ", "))
	if r.Rounds < 3 {
		p("- Fewer than 3 rounds: issue 32's goals are medians over at least 3, so these figures show the direction, not a verdict\n")
	}
	p("\n")
	p("%s%s", routeInputText, routeVariantsText)
	p("%s", routeMetricTables(r))
	p("%s", goalTable(r, routeGoals))
	p("\n%s", routeNotes(r))
	p("\n### Checks\n\n| Variant | Cached routes after sync / after relist | Cached routes with managedFields | Initial list requests (list / streamed) | Protobuf responses | Relist requests (list / streamed) | Watch events for the CPU measure |\n|---|---|---|---|---|---|---|\n")
	for _, v := range r.Variants {
		ms := r.PerVariant[v]
		if len(ms) == 0 {
			continue
		}
		m := ms[len(ms)-1]
		p("| %s | %d / %d | %d | %d / %d | %d | %d / %d | %d |\n", v, m.Synced.Objects, m.Done.ObjectsAfter, m.Synced.WithManagedFields,
			m.Synced.InitialLists, m.Synced.InitialWatchLists, m.Synced.ProtobufResponses, m.Done.Relists, m.Done.RelistWatchLists, m.EventCount)
	}
	p("\n(last round shown)\n%s\n", routeSectionEnd)
	return b.String()
}

// loadText is the load averages at the run's start and end.
func loadText(r *results) string {
	switch len(r.LoadAverages) {
	case 0:
		return "not recorded"
	case 1:
		return r.LoadAverages[0] + " at the start"
	}
	return r.LoadAverages[0] + " at the start, " + r.LoadAverages[len(r.LoadAverages)-1] + " at the end"
}

// loadNote warns, when the load average exceeded the cores at the start
// or the end of the run, that the machine was shared.
func loadNote(r *results) string {
	for _, l := range r.LoadAverages {
		var one float64
		if _, err := fmt.Sscanf(l, "%g", &one); err == nil && one > float64(runtime.NumCPU()) {
			return "- Load: the machine was shared with other work during the run (builds, tests, another control plane), so the times and CPU " +
				"figures spread wide and every variant paid for the sharing; the heap figures do not depend on it\n"
		}
	}
	return ""
}

// routeMetricTables renders one table per metric: every variant's value
// and its ratio to httproute-client-go.
func routeMetricTables(r *results) string {
	var b strings.Builder
	for _, m := range metrics {
		fmt.Fprintf(&b, "### %s (%s)\n\n| Variant | Value | / httproute-client-go |\n|---|---|---|\n", m.title, m.unit)
		cg := r.values(variantRouteClientGo, m)
		for _, v := range r.Variants {
			s := r.values(v, m)
			fmt.Fprintf(&b, "| %s | %s | %s |\n", v, s.summary(), ratioCell(s, cg))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// routeNotes says what compaction and the generated decoder each changed
// in this run, or that they were not measured.
func routeNotes(r *results) string {
	ran := func(v string) bool { return len(r.PerVariant[v]) > 0 }
	cpu := func(v string) series { return r.values(v, metricCPUPerEvent) }
	live := func(v string) series { return r.values(v, metricLiveHeap) }
	var b strings.Builder
	b.WriteString("How to read the goals. ")
	if !ran(variantRouteOurs) || !ran(variantRouteClientGo) {
		b.WriteString("Ours against the project's informer: not measured, as httproute-ours or httproute-client-go was not run. ")
	} else {
		fmt.Fprintf(&b, "httproute-ours spends %sx httproute-client-go's CPU per watch event and holds %sx its live heap; "+
			"client-go keeps managedFields and ours drops them by default, which is part of the heap saving. ",
			format(ratios(cpu(variantRouteOurs), cpu(variantRouteClientGo)).median()), format(ratios(live(variantRouteOurs), live(variantRouteClientGo)).median()))
	}
	if !ran(variantRouteOurs) || !ran(variantRouteOursUncompacted) {
		b.WriteString("Compaction: not measured, as httproute-ours or httproute-ours-uncompacted was not run. ")
	} else {
		fmt.Fprintf(&b, "Compaction costs %sx the CPU per watch event of ours without it and holds %sx its live heap. ",
			format(ratios(cpu(variantRouteOurs), cpu(variantRouteOursUncompacted)).median()), format(ratios(live(variantRouteOurs), live(variantRouteOursUncompacted)).median()))
	}
	if !ran(variantRouteOurs) || !ran(variantRouteOursNoDecoder) {
		b.WriteString("The generated decoder: not measured, as httproute-ours or httproute-ours-nodecoder was not run.\n")
	} else {
		fmt.Fprintf(&b, "With the generated decoder ours spends %sx the CPU per watch event of ours decoding through the typed client, and syncs in %sx its time.\n",
			format(ratios(cpu(variantRouteOurs), cpu(variantRouteOursNoDecoder)).median()),
			format(ratios(r.values(variantRouteOurs, metricSync), r.values(variantRouteOursNoDecoder, metricSync)).median()))
	}
	return b.String()
}
