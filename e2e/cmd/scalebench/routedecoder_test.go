package main

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/informer-gen/informer-gen/runtime/jsondecode/jsondecodetest"
)

// TestGeneratedHTTPRouteDecoderAgreesWithSigsJSONOnTheBenchmarksRoutes
// checks the decoder informer-gen generated for HTTPRoutes (which the
// httproute-ours variant's informer decodes with) on the benchmark's own
// routes, as the server returns them (metadata it sets, managedFields of
// Helm and of the Gateway controller, status): each decodes to the
// object sigs.k8s.io/json decodes (jsondecodetest.Same), and decoding
// into the compact object, from watch events and from lists, shares
// exactly what decoding then walking shares (SharesAsTheWalk,
// ListSharesAsTheWalk). Each route comes created, then relabeled as the
// benchmark relabels, then that version resent unchanged (a relist).
func TestGeneratedHTTPRouteDecoderAgreesWithSigsJSONOnTheBenchmarksRoutes(t *testing.T) {
	fn := jsondecodetest.Registered[gatewayv1.HTTPRoute](t)
	ns := []string{"routes-00", "routes-01", "routes-02"}
	var created, relabeled [][]byte
	for i := range 150 {
		r := routeAt(ns, i)
		created = append(created, routeJSON(t, r, 1, ""))
		relabeled = append(relabeled, routeJSON(t, r, 2, "round-1"))
	}
	for _, doc := range append(append([][]byte{}, created...), relabeled...) {
		jsondecodetest.Same(t, fn, doc)
	}
	key := func(p *gatewayv1.HTTPRoute) string { return p.Namespace + "/" + p.Name }
	docs := append(append(append([][]byte{}, created...), relabeled...), relabeled...)
	if shared := jsondecodetest.SharesAsTheWalk(t, fn, docs, key); shared == 0 {
		t.Error("watch events: no part shared between routes of one chart")
	}
	if shared := jsondecodetest.ListSharesAsTheWalk(t, fn, [][][]byte{created, relabeled, relabeled}, key); shared == 0 {
		t.Error("lists: no part shared between routes of one chart")
	}
}

// routeJSON is route r as the server returns it at resourceVersion rv,
// with the label the benchmark's patches set when round is not "".
func routeJSON(t *testing.T, r routeRef, rv int, round string) []byte {
	t.Helper()
	obj := httpRoute(r)
	obj.TypeMeta = metav1.TypeMeta{APIVersion: gatewayv1.GroupVersion.String(), Kind: "HTTPRoute"}
	obj.UID = types.UID(fmt.Sprintf("00000000-0000-4000-8000-%012d", r.i))
	obj.ResourceVersion = fmt.Sprint(1000 + 10*r.i + rv)
	obj.Generation = 1
	obj.CreationTimestamp = metav1.NewTime(r.start.Add(-time.Minute))
	if round != "" {
		obj.Labels["scalebench/round"] = round
	}
	obj.Status = routeStatus(r, obj.Generation)
	at := metav1.NewTime(r.start)
	obj.ManagedFields = []metav1.ManagedFieldsEntry{
		{Manager: helmManager, Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "gateway.networking.k8s.io/v1", Time: &at,
			FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:metadata":{"f:labels":{".":{},"f:app.kubernetes.io/name":{}}},"f:spec":{".":{},"f:hostnames":{},"f:parentRefs":{},"f:rules":{}}}`)},
		{Manager: gatewayManager, Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "gateway.networking.k8s.io/v1", Time: &at,
			FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:status":{".":{},"f:parents":{}}}`), Subresource: "status"},
	}
	data, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
