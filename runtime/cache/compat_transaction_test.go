package cache

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Ported from k8s.io/client-go v0.37.2 tools/cache/store_test.go
// (TestCacheTransactionShouldIndexErrors): objects whose key cannot be
// computed are reported, the others applied.
func TestCacheTransactionShouldIndexErrors(t *testing.T) {
	successObj1, successObj2, failObj1, failObj2 := 1, 2, 3, 4
	testCases := []struct {
		name    string
		objs    []any
		wantErr bool
		want    []int
	}{
		{name: "txn all success objects should work", objs: []any{successObj1, successObj2}},
		{name: "txn all fail objects should work", objs: []any{failObj1, failObj2}, wantErr: true, want: []int{}},
		{name: "txn mix success and fail objects should work", objs: []any{successObj1, failObj1, successObj2, failObj2}, wantErr: true, want: []int{0, 2}},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			testKeyFunc := func(obj any) (string, error) {
				if obj == successObj1 || obj == successObj2 {
					return "", nil
				}
				return "", errors.New("test error")
			}
			txnStore := NewStore(testKeyFunc).(TransactionStore)
			txns := make([]Transaction, len(tc.objs))
			for i := range tc.objs {
				txns[i] = Transaction{Object: tc.objs[i], Type: TransactionTypeAdd}
			}
			txnErr := txnStore.Transaction(txns...)
			if !tc.wantErr {
				if txnErr != nil {
					t.Errorf("unexpected error: %v", txnErr)
				}
				return
			}
			if txnErr == nil || !slices.Equal(txnErr.SuccessfulIndices, tc.want) || txnErr.SuccessfulIndices == nil {
				t.Fatalf("got %#v, want SuccessfulIndices %v", txnErr, tc.want)
			}
			for _, err := range txnErr.Errors {
				var keyErr KeyError
				if !errors.As(err, &keyErr) {
					t.Errorf("error %v is not a KeyError", err)
				}
			}
		})
	}
}

func TestStoreTransactionAppliesWritesInOrder(t *testing.T) {
	obj := func(name, rv string) *metav1.PartialObjectMetadata { return testObject("ns", name, rv) }
	for _, tc := range []struct {
		name string
		txns []Transaction
		want map[string]string // key -> resourceVersion
	}{
		{
			name: "add, update, delete",
			txns: []Transaction{
				{Object: obj("a", "1"), Type: TransactionTypeAdd},
				{Object: obj("b", "2"), Type: TransactionTypeAdd},
				{Object: obj("a", "3"), Type: TransactionTypeUpdate},
				{Object: obj("b", "4"), Type: TransactionTypeDelete},
			},
			want: map[string]string{"ns/a": "3", "ns/old": "0"},
		},
		{
			name: "an unknown type is skipped",
			txns: []Transaction{{Object: obj("a", "1"), Type: "Replace"}},
			want: map[string]string{"ns/old": "0"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
			if err := s.Add(obj("old", "0")); err != nil {
				t.Fatal(err)
			}
			if err := s.(TransactionStore).Transaction(tc.txns...); err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, o := range s.List() {
				m := o.(*metav1.PartialObjectMetadata)
				got[m.Namespace+"/"+m.Name] = m.ResourceVersion
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("store holds %v, want %v", got, tc.want)
			}
			keys, _ := s.IndexKeys(NamespaceIndex, "ns")
			if len(keys) != len(tc.want) {
				t.Errorf("namespace index holds %v, want %d keys", keys, len(tc.want))
			}
		})
	}
}

func TestStoreTransactionReportsAnIndexFailure(t *testing.T) {
	s := NewIndexer(func(obj any) (string, error) { return fmt.Sprint(obj), nil }, commaIndexers())
	err := s.(TransactionStore).Transaction(
		Transaction{Object: "a,b", Type: TransactionTypeAdd},
		Transaction{Object: 42, Type: TransactionTypeAdd},
	)
	if err == nil || !slices.Equal(err.SuccessfulIndices, []int{0}) || err.TotalTransactions != 2 || len(err.Errors) != 1 {
		t.Fatalf("got %#v, want transaction 1 reported", err)
	}
	want := `failed to execute (1/2) transactions failed due to: [cache: transaction Add of key "42": cache: index "by": not a string: int]`
	if err.Error() != want {
		t.Errorf("message %q, want %q", err.Error(), want)
	}
	if keys := s.ListKeys(); !slices.Equal(keys, []string{"a,b"}) {
		t.Errorf("keys %v, want only the applied transaction's", keys)
	}
}

// Ported from k8s.io/client-go v0.37.2 tools/cache/thread_safe_store_test.go
// (the Transaction step of TestThreadSafeStoreRV): the store's
// resourceVersion is the last transaction's object's.
func TestThreadSafeStoreTransactionRecordsTheLastObjectsResourceVersion(t *testing.T) {
	store := NewThreadSafeStore(Indexers{}, Indices{}).(ThreadSafeStoreWithTransaction)
	store.Add("key6", &metav1.ObjectMeta{ResourceVersion: "40"})
	txns := []ThreadSafeStoreTransaction{
		{Transaction{Object: &metav1.ObjectMeta{ResourceVersion: "40"}, Type: TransactionTypeUpdate}, "key9"},
		{Transaction{Object: &metav1.ObjectMeta{ResourceVersion: "30"}, Type: TransactionTypeUpdate}, "key10"},
		{Transaction{Object: &metav1.ObjectMeta{ResourceVersion: "50"}, Type: TransactionTypeUpdate}, "key11"},
	}
	store.Transaction(txns...)
	if rv := store.LastStoreSyncResourceVersion(); rv != "50" {
		t.Errorf("Expected RV to be \"50\" after transaction, got %q", rv)
	}
	store.Transaction(ThreadSafeStoreTransaction{Transaction{Object: "plain", Type: TransactionTypeDelete}, "key9"})
	if rv := store.LastStoreSyncResourceVersion(); rv != "50" {
		t.Errorf("Expected RV to remain \"50\" after a transaction of a non-meta object, got %q", rv)
	}
	keys := store.ListKeys()
	slices.Sort(keys)
	if !slices.Equal(keys, []string{"key10", "key11", "key6"}) {
		t.Errorf("keys %v", keys)
	}
}

func TestThreadSafeStoreTransactionPanicsLikeUpdateWhenAnIndexFunctionFails(t *testing.T) {
	s := NewThreadSafeStore(commaIndexers(), Indices{}).(ThreadSafeStoreWithTransaction)
	got := func() (msg string) {
		defer func() { msg = fmt.Sprint(recover()) }()
		s.Transaction(ThreadSafeStoreTransaction{Transaction{Object: 42, Type: TransactionTypeAdd}, "k"})
		return "no panic"
	}()
	if want := `unable to calculate an index entry for key "k" on index "by": not a string: int`; got != want {
		t.Errorf("panic = %q, want %q", got, want)
	}
}

func TestWithThreadSafeStoreMetricsPublishesTheResourceVersion(t *testing.T) {
	defer ResetInformerNamesForTesting()
	name, err := NewInformerName("thread-safe-store-metrics")
	if err != nil {
		t.Fatal(err)
	}
	id := name.WithResource(schema.GroupVersionResource{Version: "v1", Resource: "pods"})
	rv := &gauge{}
	store := NewThreadSafeStore(Indexers{}, Indices{}, WithThreadSafeStoreMetrics(id, provider{rv: rv}))
	for _, step := range []struct {
		write func()
		want  float64
	}{
		{func() { store.Add("a", &metav1.ObjectMeta{ResourceVersion: "10"}) }, 10},
		{func() { store.Replace(map[string]any{}, "20") }, 20},
		{func() { store.Bookmark("1234567890123456789") }, 567890123456789},
		{func() { store.DeleteWithObject("a", &metav1.ObjectMeta{ResourceVersion: "30"}) }, 30},
	} {
		step.write()
		if got, _ := rv.value(); got != step.want {
			t.Errorf("metric %v, want %v", got, step.want)
		}
	}
}
