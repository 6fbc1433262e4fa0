package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func TestResourceOfRunsRouteVariantsOnlyOnTheirOwn(t *testing.T) {
	for _, tc := range []struct {
		variants []string
		want     string
		err      bool
	}{
		{variants: []string{variantClientGo, variantOursJSON}, want: resourcePods},
		{variants: routeVariants, want: resourceHTTPRoutes},
		{variants: []string{variantRouteOurs}, want: resourceHTTPRoutes},
		{variants: []string{variantClientGoJSON, variantRouteOurs}, err: true},
		{variants: nil, err: true},
	} {
		t.Run(strings.Join(tc.variants, ","), func(t *testing.T) {
			got, err := resourceOf(tc.variants)
			if (err != nil) != tc.err || got != tc.want {
				t.Errorf("resourceOf = %q, %v; want %q, error %t", got, err, tc.want, tc.err)
			}
		})
	}
}

func TestRouteVariantsTurnOffCompactionOrTheDecoderAndRefuseOthers(t *testing.T) {
	for _, tc := range []struct {
		variant string
		options int
		err     bool
	}{
		{variant: variantRouteOurs, options: 0},
		{variant: variantRouteOursUncompacted, options: 1},
		{variant: variantRouteOursNoDecoder, options: 1},
		{variant: "httproute-ours-json", err: true},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			opts, err := routeFactoryOptions(tc.variant)
			if (err != nil) != tc.err || len(opts) != tc.options {
				t.Errorf("routeFactoryOptions = %d options, %v; want %d, error %t", len(opts), err, tc.options, tc.err)
			}
		})
	}
	if !keepsManagedFields(variantRouteClientGo) || keepsManagedFields(variantRouteOurs) {
		t.Errorf("httproute-client-go keeps managedFields and httproute-ours drops them by default")
	}
}

func TestRoutesAreDeterministicDistinctAndShareTheirChartsShape(t *testing.T) {
	ns := []string{"routes-00", "routes-01", "routes-02"}
	seen := map[string]bool{}
	for i := range 3000 {
		r := routeAt(ns, i)
		if again := routeAt(ns, i); again != r {
			t.Fatalf("route %d differs between two calls: %+v, %+v", i, r, again)
		}
		key := r.namespace + "/" + r.name
		if seen[key] {
			t.Fatalf("route %d: %s named twice", i, key)
		}
		seen[key] = true
		obj := httpRoute(r)
		if n := len(obj.Spec.Rules); n != r.rules || n < 1 || n > routeRulesMax {
			t.Fatalf("route %d: %d rules, want %d in [1, %d]", i, n, r.rules, routeRulesMax)
		}
		if obj.Labels["app.kubernetes.io/name"] != r.name || obj.Annotations["meta.helm.sh/release-namespace"] != r.namespace {
			t.Fatalf("route %d: the chart's labels and annotations do not name its release: %v %v", i, obj.Labels, obj.Annotations)
		}
	}
}

// TestRoutesHaveOnlyFieldsOfTheCRDSchema checks every route's JSON
// (spec and status) against the structural schema of the CRD the
// Gateway API ships: each field is one the schema declares, of its type,
// every required field is there and every enum value is allowed. The
// server checks the same, and its CEL rules, when the benchmark creates
// them with fieldValidation=Strict.
func TestRoutesHaveOnlyFieldsOfTheCRDSchema(t *testing.T) {
	crd, err := readCRD(httpRouteCRDFile)
	if err != nil {
		t.Skipf("the Gateway API module is not in the module cache: %v", err)
	}
	versions, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	var schema map[string]any
	for _, v := range versions {
		if m := v.(map[string]any); m["name"] == "v1" {
			schema, _, _ = unstructured.NestedMap(m, "schema", "openAPIV3Schema")
		}
	}
	if schema == nil {
		t.Fatal("the CRD has no v1 schema")
	}
	ns := []string{"routes-00", "routes-01"}
	for i := range 40 {
		r := routeAt(ns, i)
		obj := httpRoute(r)
		obj.Status = routeStatus(r, 1)
		data, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		delete(m, "metadata") // the schema leaves it to the server
		for _, p := range schemaViolations(schema, m, "") {
			t.Errorf("route %d: %s", i, p)
		}
	}
	bad := map[string]any{"spec": map[string]any{"retry": map[string]any{}}}
	if got := schemaViolations(schema, bad, ""); len(got) == 0 {
		t.Error("a field the standard channel does not have (spec.retry) passed the check")
	}
}

// schemaViolations lists where v does not fit the structural schema s.
func schemaViolations(s map[string]any, v any, path string) []string {
	var out []string
	if enum, ok := s["enum"].([]any); ok && !slices.Contains(enum, v) {
		out = append(out, fmt.Sprintf("%s: %v is not one of %v", path, v, enum))
	}
	switch s["type"] {
	case "object":
		out = append(out, objectViolations(s, v, path)...)
	case "array":
		items, _ := s["items"].(map[string]any)
		for k, x := range asSlice(v) {
			out = append(out, schemaViolations(items, x, fmt.Sprintf("%s[%d]", path, k))...)
		}
	case "string":
		if _, ok := v.(string); !ok {
			out = append(out, fmt.Sprintf("%s: %T, want a string", path, v))
		}
	case "integer":
		if f, ok := v.(float64); !ok || f != float64(int64(f)) {
			out = append(out, fmt.Sprintf("%s: %v, want an integer", path, v))
		}
	}
	return out
}

// objectViolations lists where v does not fit the object schema s: not
// an object, a required field missing, a field the schema does not have.
func objectViolations(s map[string]any, v any, path string) []string {
	m, ok := v.(map[string]any)
	if !ok {
		return []string{fmt.Sprintf("%s: %T, want an object", path, v)}
	}
	var out []string
	props, _ := s["properties"].(map[string]any)
	for _, req := range asSlice(s["required"]) {
		if _, ok := m[req.(string)]; !ok {
			out = append(out, fmt.Sprintf("%s: required field %s missing", path, req))
		}
	}
	for k, x := range m {
		sub, ok := props[k].(map[string]any)
		if !ok {
			sub, ok = s["additionalProperties"].(map[string]any)
		}
		if !ok {
			out = append(out, fmt.Sprintf("%s.%s: not in the schema", path, k))
			continue
		}
		out = append(out, schemaViolations(sub, x, path+"."+k)...)
	}
	return out
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

func TestRouteSectionSaysNotMeasuredForVariantsNotRun(t *testing.T) {
	r := &results{
		Resource: resourceHTTPRoutes, Variants: []string{variantRouteClientGo, variantRouteOurs},
		PerVariant: map[string][]measurement{
			variantRouteClientGo: {withLiveHeap(100, 1000)},
			variantRouteOurs:     {withLiveHeap(30, 350)},
		},
		LoadAverages: []string{"9.10 8.00 7.00", "12.00 10.00 8.00"},
	}
	s := routeSection(r)
	for _, want := range []string{
		routeSectionStart, routeSectionEnd,
		"| httproute-ours informer CPU per watch event ≤ 0.4x httproute-client-go | 0.350 | yes |",
		"| httproute-ours live heap ≤ 0.35x httproute-client-go | 0.300 | yes |",
		"not measured: httproute-ours-uncompacted was not run",
		"not measured: httproute-ours-nodecoder was not run",
		"Compaction: not measured",
		"The generated decoder: not measured",
		"9.10 8.00 7.00 at the start, 12.00 10.00 8.00 at the end",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the section lacks %q:\n%s", want, s)
		}
	}
	doc := "# B\n\n" + sectionStart + "\nold pods\n" + sectionEnd + "\n\n## Method\n"
	out := spliceBetween(spliceBetween(doc, s, routeSectionStart, routeSectionEnd), s, routeSectionStart, routeSectionEnd)
	if strings.Count(out, routeSectionStart) != 1 || !strings.Contains(out, "old pods") {
		t.Errorf("writing the route section twice did not replace it in place, or touched the Pod section:\n%s", out)
	}
}
