package compaction_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/informer-gen/informer-gen/bench/internal/dataset"
	"github.com/informer-gen/informer-gen/runtime/compact"
)

// configMapJSON returns n ConfigMaps, each encoded on its own: every
// namespace's kube-root-ca.crt (the same certificate everywhere), and
// applications' configurations, of which a few per team are copies.
func configMapJSON(tb testing.TB, n int) [][]byte {
	tb.Helper()
	r := rand.New(rand.NewPCG(3, 4))
	ca := "-----BEGIN CERTIFICATE-----\n" + strings.Repeat(dataset.RandName(r, 64)+"\n", 18) + "-----END CERTIFICATE-----\n"
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	out := make([][]byte, n)
	for i := range out {
		ns := fmt.Sprintf("team-%d", i/10)
		cm := &corev1.ConfigMap{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("app-%d-config", i%10), UID: types.UID(dataset.RandName(r, 36)),
				ResourceVersion: fmt.Sprint(5000 + i), CreationTimestamp: metav1.NewTime(base.Add(time.Duration(i) * time.Second)),
				Labels: map[string]string{"app.kubernetes.io/part-of": "platform", "team": ns}},
			Data: map[string]string{"LOG_LEVEL": "info", "FEATURE_X": fmt.Sprint(i%3 == 0), "config.yaml": fmt.Sprintf("listen: :8080\nupstream: svc-%d.%s\n", i%10, ns)},
		}
		if i%10 == 0 {
			cm.Name, cm.Labels, cm.Data = "kube-root-ca.crt", nil, map[string]string{"ca.crt": ca}
			cm.Annotations = map[string]string{"kubernetes.io/description": "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc."}
		}
		b, err := json.Marshal(cm)
		if err != nil {
			tb.Fatal(err)
		}
		out[i] = b
	}
	return out
}

func decodeConfigMaps(tb testing.TB, src [][]byte) []*corev1.ConfigMap {
	tb.Helper()
	out := make([]*corev1.ConfigMap, len(src))
	for i, b := range src {
		out[i] = new(corev1.ConfigMap)
		if err := json.Unmarshal(b, out[i]); err != nil {
			tb.Fatal(err)
		}
	}
	return out
}

func TestCompactedConfigMapsEqualTheirDecoding(t *testing.T) {
	src := configMapJSON(t, 200)
	got, want := decodeConfigMaps(t, src), decodeConfigMaps(t, src)
	tab := compact.NewTable()
	for _, c := range got {
		tab.Object(c)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatal("compacted ConfigMaps differ from their decoding")
	}
}

// BenchmarkLiveHeapPerConfigMap is BenchmarkLiveHeapPerPod of ConfigMaps.
func BenchmarkLiveHeapPerConfigMap(b *testing.B) {
	const count = 20000
	src := configMapJSON(b, count)
	for _, compacted := range []bool{false, true} {
		b.Run(fmt.Sprintf("compacted=%v", compacted), func(b *testing.B) {
			for range b.N {
				b.ReportMetric(liveHeapPerObject(b, count, func() any {
					cms := decodeConfigMaps(b, src)
					if compacted {
						for _, c := range cms {
							compact.Default().Object(c)
						}
					}
					return cms
				}), "B/configmap")
			}
		})
	}
}
