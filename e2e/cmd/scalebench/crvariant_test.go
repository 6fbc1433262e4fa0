package main

import (
	"strings"
	"testing"
)

// crGoal returns the goal of variant against peer on metric m.
func crGoal(t *testing.T, variant, peer string, m metric) goal {
	t.Helper()
	for _, g := range goals {
		if g.variant == variant && g.peer == peer && g.metric.title == m.title {
			return g
		}
	}
	t.Fatalf("no goal of %s against %q on %q", variant, peer, m.title)
	return goal{}
}

func TestControllerRuntimeGoalsCompareCROursWithCRAndCRStripAndStrippedWithStripped(t *testing.T) {
	r := &results{PerVariant: map[string][]measurement{
		variantCR:          {withLiveHeap(100, 200)},
		variantCRStrip:     {withLiveHeap(80, 200)},
		variantCROurs:      {withLiveHeap(30, 210)},
		variantCROursStrip: {withLiveHeap(24, 210)},
	}}
	for _, tc := range []struct {
		name    string
		variant string
		peer    string
		metric  metric
		limit   float64
		want    float64
	}{
		{"live heap against cr", variantCROurs, variantCR, metricLiveHeap, 0.35, 0.30},
		{"live heap against cr-strip", variantCROurs, variantCRStrip, metricLiveHeap, 0.45, 30.0 / 80},
		{"live heap stripped on both sides", variantCROursStrip, variantCRStrip, metricLiveHeap, 0.45, 24.0 / 80},
		{"time to WaitForCacheSync against cr", variantCROurs, variantCR, metricSync, 0.9, 1},
		{"CPU per watch event against cr", variantCROurs, variantCR, metricCPUPerEvent, 1.1, 1.05},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := crGoal(t, tc.variant, tc.peer, tc.metric)
			if g.limit != tc.limit || g.difference {
				t.Errorf("goal %q: limit %v (difference %t), want ratio ≤ %v", g.text, g.limit, g.difference, tc.limit)
			}
			if got := g.ratio(r).median(); got < tc.want-1e-6 || got > tc.want+1e-6 {
				t.Errorf("goal %q measured %v, want %v", g.text, got, tc.want)
			}
		})
	}
	for _, m := range []metric{metricRelistLiveRate, metricRelistRatio} {
		if g := crGoal(t, variantCROurs, "", m); g.limit != 1.3 {
			t.Errorf("goal %q: limit %v, want 1.3", g.text, g.limit)
		}
	}
}

func TestReportHasTheCRColumnOnlyWhenCRRanAndNamesMissingCRVariants(t *testing.T) {
	for _, tc := range []struct {
		name      string
		per       map[string][]measurement
		want, not []string
	}{{
		name: "cr and cr-ours ran",
		per: map[string][]measurement{
			variantCR: {withLiveHeap(100, 200)}, variantCROurs: {withLiveHeap(30, 210)},
		},
		want: []string{"| Variant | Value | / client-go | / client-go-strip | / cr |", "| cr-ours | 30.00 | – | – | 0.300 |",
			"cr-ours holds 0.300x the live heap of cr", "not measured: cr-strip was not run"},
	}, {
		name: "cr not run",
		per:  map[string][]measurement{variantClientGo: {withLiveHeap(100, 200)}},
		want: []string{"| Variant | Value | / client-go | / client-go-strip |\n", "not measured: cr-ours was not run"},
		not:  []string{"/ cr |", "cr-ours holds"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			var variants []string
			for _, v := range allVariants {
				if len(tc.per[v]) > 0 {
					variants = append(variants, v)
				}
			}
			s := section(&results{Variants: variants, PerVariant: tc.per, Events: 100})
			for _, w := range tc.want {
				if !strings.Contains(s, w) {
					t.Errorf("the section lacks %q:\n%s", w, s)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(s, n) {
					t.Errorf("the section has %q", n)
				}
			}
		})
	}
}

func TestControllerRuntimeKeepsManagedFieldsUnlessItsTransformStripsThem(t *testing.T) {
	for _, tc := range []struct {
		variant string
		keeps   bool
		strips  bool
		ours    bool
	}{
		{variantCR, true, false, false},
		{variantCRStrip, false, true, false},
		{variantCROurs, true, false, true},
		{variantCROursStrip, false, true, true},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			if got := keepsManagedFields(tc.variant); got != tc.keeps {
				t.Errorf("keepsManagedFields = %t, want %t", got, tc.keeps)
			}
			opts := crOptions(tc.variant)
			if (opts.DefaultTransform != nil) != tc.strips || (opts.NewInformer != nil) != tc.ours || opts.Scheme == nil {
				t.Errorf("options: transform %t, NewInformer %t, scheme %v; want transform %t, NewInformer %t and a scheme",
					opts.DefaultTransform != nil, opts.NewInformer != nil, opts.Scheme, tc.strips, tc.ours)
			}
		})
	}
}
