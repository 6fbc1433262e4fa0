package gatewayapigen_test

import (
	"encoding/json"
	"fmt"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	_ "github.com/informer-gen/informer-gen/e2e/internal/gatewayapigen/informers/externalversions/gateway/v1" // registers the generated decoders and walks
	"github.com/informer-gen/informer-gen/runtime/jsondecode/jsondecodetest"
)

// kindCheck is the differential check of one Gateway API v1 kind with a
// generated decoder (and of its list).
type kindCheck struct {
	name string
	run  func(t *testing.T, n int)
}

// kinds are the Gateway API v1 kinds informer-gen generates informers
// and JSON decoders for.
var kinds = []kindCheck{
	check[gatewayv1.BackendTLSPolicy, gatewayv1.BackendTLSPolicyList]("BackendTLSPolicy"),
	check[gatewayv1.GRPCRoute, gatewayv1.GRPCRouteList]("GRPCRoute"),
	check[gatewayv1.Gateway, gatewayv1.GatewayList]("Gateway"),
	check[gatewayv1.GatewayClass, gatewayv1.GatewayClassList]("GatewayClass"),
	check[gatewayv1.HTTPRoute, gatewayv1.HTTPRouteList]("HTTPRoute"),
	check[gatewayv1.ListenerSet, gatewayv1.ListenerSetList]("ListenerSet"),
	check[gatewayv1.ReferenceGrant, gatewayv1.ReferenceGrantList]("ReferenceGrant"),
	check[gatewayv1.TCPRoute, gatewayv1.TCPRouteList]("TCPRoute"),
	check[gatewayv1.TLSRoute, gatewayv1.TLSRouteList]("TLSRoute"),
	check[gatewayv1.UDPRoute, gatewayv1.UDPRouteList]("UDPRoute"),
}

// TestGeneratedDecodersAgreeWithSigsJSONAndShareAsTheWalk checks, for
// every kind, random objects (and lists) decoded by the generated decoder
// against sigs.k8s.io/json (jsondecodetest.Random: DeepEqual objects, the
// same errors), and decoded into the compact object, from a watch event
// or a list, against decoding then walking (jsondecodetest.SharesAsTheWalk,
// ListSharesAsTheWalk): the same objects, sharing the same parts. Each
// object comes in three versions of its key: created, changed, and the
// change resent unchanged (whose parts are all the previous version's).
func TestGeneratedDecodersAgreeWithSigsJSONAndShareAsTheWalk(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 40
	}
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) { k.run(t, n) })
	}
}

// check returns the checks of kind T with list L.
func check[T, L any](name string) kindCheck {
	return kindCheck{name: name, run: func(t *testing.T, n int) {
		fn, list := jsondecodetest.Registered[T](t), jsondecodetest.Registered[L](t)
		jsondecodetest.Random(t, fn, n)
		jsondecodetest.Random(t, list, n/4)
		created, changed := versions[T](t, n)
		resent := changed
		docs := append(append(append([][]byte{}, created...), changed...), resent...)
		if shared := jsondecodetest.SharesAsTheWalk(t, fn, docs, key[T]); shared == 0 {
			t.Errorf("%s: no part shared across %d objects resent unchanged", name, len(resent))
		}
		if shared := jsondecodetest.ListSharesAsTheWalk(t, fn, [][][]byte{created, changed, resent}, key[T]); shared == 0 {
			t.Errorf("%s: no part shared across lists of %d objects relisted unchanged", name, len(resent))
		}
	}}
}

// versions returns n random objects of T encoded by encoding/json, each
// with a distinct namespace and name, and a second random version of
// each, of the same key.
func versions[T any](t *testing.T, n int) (created, changed [][]byte) {
	t.Helper()
	for i := range n {
		v1, v2 := new(T), new(T)
		jsondecodetest.Filler(int64(i)).Fill(v1)
		jsondecodetest.Filler(int64(n + i)).Fill(v2)
		m1, m2 := any(v1).(metav1.Object), any(v2).(metav1.Object)
		m1.SetNamespace("ns")
		m1.SetName(fmt.Sprintf("object-%d", i))
		m2.SetNamespace(m1.GetNamespace())
		m2.SetName(m1.GetName())
		b1, err1 := json.Marshal(v1)
		b2, err2 := json.Marshal(v2)
		if err1 != nil || err2 != nil {
			continue // as jsondecodetest.Random: a value encoding/json cannot encode
		}
		created, changed = append(created, b1), append(changed, b2)
	}
	if len(created) < n/2 {
		t.Fatalf("%T: %d of %d random values could not be encoded", *new(T), n-len(created), n)
	}
	return created, changed
}

// key is an object's namespace/name, its key in a cache.
func key[T any](p *T) string {
	m := any(p).(metav1.Object)
	return m.GetNamespace() + "/" + m.GetName()
}
