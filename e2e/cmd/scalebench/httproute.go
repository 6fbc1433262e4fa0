package main

import (
	"fmt"
	"math/rand/v2"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// The custom resources of the httproute-* variants are the Gateway API's
// HTTPRoutes (gateway.networking.k8s.io/v1), shaped as a cluster holds
// them: each is one app's route, written by Helm from the app's chart
// (field manager "helm": the chart's labels and release annotations, no
// owner reference, as Helm sets none), attached to the cluster's shared
// Gateway, and its status written by the Gateway implementation's
// controller (Envoy Gateway: field manager "envoy-gateway", status
// subresource) with the Accepted and ResolvedRefs conditions of its one
// parent. An app's routes share its chart's shape; what each has of its
// own is its name, hostname, backends and times.
const (
	helmManager         = "helm"
	gatewayManager      = "envoy-gateway"
	gatewayController   = "gateway.envoyproxy.io/gatewayclass-controller"
	gatewayName         = "eg-public"
	gatewayNamespace    = "envoy-gateway-system"
	routeRulesMax       = 3
	routeNamespacesSalt = 0x9e3779b97f4a7c15
)

// routeRef places route i of n spread round-robin over namespaces: the
// (i/N)-th of namespace i mod N, named for its app.
type routeRef struct {
	i, j            int
	namespace, name string
	// rules is how many rules the app's chart writes (1 to 3); start
	// when the route was accepted.
	rules int
	start time.Time
}

// routeAt returns the place of route i among namespaces.
func routeAt(namespaces []string, i int) routeRef {
	k := i % len(namespaces)
	j := i / len(namespaces)
	ns := namespaces[k]
	rng := rand.New(rand.NewPCG(uint64(i), routeNamespacesSalt^fnvOf(ns)))
	return routeRef{
		i: i, j: j, namespace: ns,
		name:  fmt.Sprintf("%s-%s", appName(j), randomSuffix(j, fnvOf(ns))[:4]),
		rules: 1 + rng.IntN(routeRulesMax),
		start: statusEpoch.Add(time.Duration(rng.Int64N(int64(statusWindow/time.Second))) * time.Second),
	}
}

// httpRoute is route r as Helm creates it, without status.
func httpRoute(r routeRef) *gatewayv1.HTTPRoute {
	app := r.name
	section := gatewayv1.SectionName("https")
	ns := gatewayv1.Namespace(gatewayNamespace)
	return &gatewayv1.HTTPRoute{
		ObjectMeta: metav1.ObjectMeta{
			Name: r.name, Namespace: r.namespace,
			Labels: map[string]string{
				"app.kubernetes.io/name":       app,
				"app.kubernetes.io/instance":   app,
				"app.kubernetes.io/managed-by": "Helm",
				"app.kubernetes.io/version":    "1.8.3",
				"app.kubernetes.io/component":  "web",
				"helm.sh/chart":                "web-service-0.14.2",
			},
			Annotations: map[string]string{
				"meta.helm.sh/release-name":      app,
				"meta.helm.sh/release-namespace": r.namespace,
			},
		},
		Spec: gatewayv1.HTTPRouteSpec{
			CommonRouteSpec: gatewayv1.CommonRouteSpec{ParentRefs: []gatewayv1.ParentReference{{
				Name: gatewayName, Namespace: &ns, SectionName: &section,
			}}},
			Hostnames: []gatewayv1.Hostname{gatewayv1.Hostname(fmt.Sprintf("%s.%s.apps.example.com", app, r.namespace))},
			Rules:     routeRules(app, r.rules),
		},
	}
}

// routeRules are the first n of the chart's rules: the API behind a
// header-setting filter and a request timeout, the static assets with a
// rewrite, the web front end with retries.
func routeRules(app string, n int) []gatewayv1.HTTPRouteRule {
	prefix := gatewayv1.PathMatchPathPrefix
	path := func(p string) []gatewayv1.HTTPRouteMatch {
		return []gatewayv1.HTTPRouteMatch{{Path: &gatewayv1.HTTPPathMatch{Type: &prefix, Value: ptr(p)}}}
	}
	backend := func(name string, port gatewayv1.PortNumber) []gatewayv1.HTTPBackendRef {
		return []gatewayv1.HTTPBackendRef{{BackendRef: gatewayv1.BackendRef{
			BackendObjectReference: gatewayv1.BackendObjectReference{Name: gatewayv1.ObjectName(name), Port: &port},
		}}}
	}
	timeout := gatewayv1.Duration("30s")
	rules := []gatewayv1.HTTPRouteRule{
		{
			Name: ptr(gatewayv1.SectionName("api")), Matches: path("/api"), BackendRefs: backend(app+"-api", 8080),
			Filters: []gatewayv1.HTTPRouteFilter{{
				Type: gatewayv1.HTTPRouteFilterRequestHeaderModifier,
				RequestHeaderModifier: &gatewayv1.HTTPHeaderFilter{
					Set:    []gatewayv1.HTTPHeader{{Name: "X-Forwarded-Prefix", Value: "/api"}},
					Remove: []string{"X-Internal-Debug"},
				},
			}},
			Timeouts: &gatewayv1.HTTPRouteTimeouts{Request: &timeout},
		},
		{
			Name: ptr(gatewayv1.SectionName("static")), Matches: path("/static"), BackendRefs: backend(app+"-assets", 80),
			Filters: []gatewayv1.HTTPRouteFilter{{
				Type: gatewayv1.HTTPRouteFilterURLRewrite,
				URLRewrite: &gatewayv1.HTTPURLRewriteFilter{Path: &gatewayv1.HTTPPathModifier{
					Type: gatewayv1.PrefixMatchHTTPPathModifier, ReplacePrefixMatch: ptr("/"),
				}},
			}},
		},
		{
			Name: ptr(gatewayv1.SectionName("web")), Matches: path("/"),
			BackendRefs: append(weighted(backend(app+"-web", 80), 90), weighted(backend(app+"-web-canary", 80), 10)...),
		},
	}
	return rules[routeRulesMax-n:]
}

// routeStatus is the status the Gateway implementation writes for route
// r: its one parent accepted and its references resolved.
func routeStatus(r routeRef, generation int64) gatewayv1.HTTPRouteStatus {
	section := gatewayv1.SectionName("https")
	ns := gatewayv1.Namespace(gatewayNamespace)
	group := gatewayv1.Group(gatewayv1.GroupName)
	kind := gatewayv1.Kind("Gateway")
	t := metav1.NewTime(r.start)
	return gatewayv1.HTTPRouteStatus{RouteStatus: gatewayv1.RouteStatus{Parents: []gatewayv1.RouteParentStatus{{
		ParentRef:      gatewayv1.ParentReference{Group: &group, Kind: &kind, Name: gatewayName, Namespace: &ns, SectionName: &section},
		ControllerName: gatewayController,
		Conditions: []metav1.Condition{
			{Type: string(gatewayv1.RouteConditionAccepted), Status: metav1.ConditionTrue, ObservedGeneration: generation,
				LastTransitionTime: t, Reason: string(gatewayv1.RouteReasonAccepted), Message: "Route is accepted"},
			{Type: string(gatewayv1.RouteConditionResolvedRefs), Status: metav1.ConditionTrue, ObservedGeneration: generation,
				LastTransitionTime: t, Reason: string(gatewayv1.RouteReasonResolvedRefs), Message: "Resolved all the Object references for the Route"},
		},
	}}}}
}

// weighted sets the weight of every backend of refs.
func weighted(refs []gatewayv1.HTTPBackendRef, weight int32) []gatewayv1.HTTPBackendRef {
	for k := range refs {
		refs[k].Weight = ptr(weight)
	}
	return refs
}
