package v1_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"unsafe"

	"github.com/informer-gen/informer-gen/runtime/compact"

	batchv1 "example.com/kubebuilder/api/v1"
)

const cronJobJSON = `{
  "apiVersion": "batch.example.org/v1", "kind": "CronJob",
  "metadata": {"name": "nightly", "namespace": "jobs", "labels": {"app": "backup", "tier": "batch"}},
  "spec": {
    "schedule": "0 3 * * *", "concurrencyPolicy": "Forbid", "startingDeadlineSeconds": 60,
    "jobTemplate": {"image": "registry.example.org/backup:1.2", "args": ["--all", "--compress"],
      "env": [{"name": "TARGET", "value": "s3://bucket"}],
      "volumes": [{"name": "scratch", "mountPath": "/scratch"}]},
    "limits": {"cpu": "500m", "memory": "1Gi"}, "quota": "2",
    "selector": {"app": "backup"}
  },
  "status": {"active": [{"kind": "Job", "name": "nightly-1", "namespace": "jobs"}],
    "conditions": [{"type": "Ready", "status": "True", "reason": "Scheduled", "message": "ok",
      "lastTransitionTime": "2026-01-02T03:04:05Z"}]}
}`

// decode returns a freshly decoded CronJob: its strings and slices are its
// own, shared with no other object.
func decode(t *testing.T) *batchv1.CronJob {
	t.Helper()
	var c batchv1.CronJob
	if err := json.Unmarshal([]byte(cronJobJSON), &c); err != nil {
		t.Fatal(err)
	}
	return &c
}

func TestImportingThePackageRegistersTheWalksOfItsObjectTypes(t *testing.T) {
	for _, tt := range []struct {
		name    string
		example any
		want    bool
	}{
		{"root object", &batchv1.CronJob{}, true},
		{"its list, never cached", &batchv1.CronJobList{}, false},
		{"a struct without ObjectMeta", &batchv1.CronJobSpec{}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := compact.Registered(tt.example); got != tt.want {
				t.Errorf("compact.Registered(%T) = %v, want %v", tt.example, got, tt.want)
			}
		})
	}
}

func TestGeneratedWalkKeepsTheObjectAndSharesWhatRepeats(t *testing.T) {
	table := compact.NewTable()
	objs := []*batchv1.CronJob{decode(t), decode(t), decode(t)}
	for _, o := range objs {
		table.Object(o)
		if want := decode(t); !reflect.DeepEqual(o, want) {
			t.Fatalf("compaction changed the object:\n got %+v\nwant %+v", o, want)
		}
	}
	b, c := objs[1], objs[2]
	for _, tt := range []struct {
		name string
		x, y string
	}{
		{"spec string", b.Spec.Schedule, c.Spec.Schedule},
		{"nested struct string", b.Spec.JobTemplate.Image, c.Spec.JobTemplate.Image},
		{"defined string type", string(b.Spec.ConcurrencyPolicy), string(c.Spec.ConcurrencyPolicy)},
		{"metadata", b.Namespace, c.Namespace},
		{"status condition", b.Status.Conditions[0].Reason, c.Status.Conditions[0].Reason},
	} {
		if unsafe.StringData(tt.x) != unsafe.StringData(tt.y) {
			t.Errorf("%s %q: two objects hold separate copies after compaction", tt.name, tt.x)
		}
	}
	for _, tt := range []struct {
		name string
		x, y unsafe.Pointer
	}{
		{"args slice", unsafe.Pointer(unsafe.SliceData(b.Spec.JobTemplate.Args)), unsafe.Pointer(unsafe.SliceData(c.Spec.JobTemplate.Args))},
		{"slice of this package's structs", unsafe.Pointer(unsafe.SliceData(b.Spec.JobTemplate.Volumes)), unsafe.Pointer(unsafe.SliceData(c.Spec.JobTemplate.Volumes))},
		{"slice of another package's structs", unsafe.Pointer(unsafe.SliceData(b.Spec.JobTemplate.Env)), unsafe.Pointer(unsafe.SliceData(c.Spec.JobTemplate.Env))},
	} {
		if tt.x != tt.y {
			t.Errorf("%s: two objects hold separate copies after compaction", tt.name)
		}
	}
}

// reflected is CronJob under another name: no walk is registered for it,
// so package compact compacts it with its reflective walk.
type reflected batchv1.CronJob

func TestGeneratedWalkGivesWhatTheReflectiveWalkGives(t *testing.T) {
	if compact.Registered(&reflected{}) {
		t.Fatal("the reflective stand-in has a registered walk")
	}
	generated, reflective := compact.NewTable(), compact.NewTable()
	for range 3 {
		g, r := decode(t), (*reflected)(decode(t))
		generated.Object(g)
		reflective.Object(r)
		if !reflect.DeepEqual(g, (*batchv1.CronJob)(r)) {
			t.Fatalf("the generated and the reflective walks give different objects:\n generated %+v\nreflective %+v", g, r)
		}
	}
}
