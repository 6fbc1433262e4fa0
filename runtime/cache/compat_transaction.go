package cache

import (
	"github.com/informer-gen/informer-gen/runtime/cache/internal/store"

	"fmt"
	"maps"
	"slices"
)

// TransactionType defines the type of a transaction operation. It is used
// to indicate whether an object is being added, updated, or deleted.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type TransactionType string

// The TransactionTypes; a Transaction of another type is skipped.
const (
	TransactionTypeAdd    TransactionType = "Add"
	TransactionTypeUpdate TransactionType = "Update"
	TransactionTypeDelete TransactionType = "Delete"
)

// Transaction represents a single operation or event in a process. It
// holds a generic Object associated with the transaction and a Type
// indicating the kind of transaction being performed.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type Transaction struct {
	Object any
	Type   TransactionType
}

// TransactionStore is a store that applies several writes under one lock
// acquisition. The stores of NewStore and NewIndexer implement it.
//
// The informer does not use it; it is here for code written against
// client-go's tools/cache.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type TransactionStore interface {
	// Transaction allows multiple operations to occur within a single lock
	// acquisition to ensure progress can be made when there is contention.
	Transaction(txns ...Transaction) *TransactionError
}

var _ error = &TransactionError{}

// TransactionError says which transactions of a Transaction call were
// applied: SuccessfulIndices are their indices in the call, Errors the
// reasons of the others.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type TransactionError struct {
	SuccessfulIndices []int
	TotalTransactions int
	Errors            []error
}

// Error implements error, with client-go's message.
func (t *TransactionError) Error() string {
	return fmt.Sprintf("failed to execute (%d/%d) transactions failed due to: %v",
		t.TotalTransactions-len(t.SuccessfulIndices), t.TotalTransactions, t.Errors)
}

// ThreadSafeStoreWithTransaction is a store that can batch execute
// multiple transactions. The store of NewThreadSafeStore implements it.
//
// The informer does not use it; it is here for code written against
// client-go's tools/cache.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type ThreadSafeStoreWithTransaction interface {
	ThreadSafeStore
	// Transaction allows performing multiple writes in one call.
	Transaction(fns ...ThreadSafeStoreTransaction)
}

// ThreadSafeStoreTransaction embeds a Transaction and includes the
// specific Key identifying the affected object.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type ThreadSafeStoreTransaction struct {
	Transaction
	Key string
}

// Transaction applies txns in order under one write lock: each object is
// filed under its key, as Add, Update and Delete would. A transaction
// whose key cannot be computed is skipped and reported as a KeyError, as
// in client-go; one whose object has no index value (an index function
// failed) or is nil is skipped and reported too, where client-go's store
// panics. It returns nil when every transaction was applied. It does not
// run the store's transformer (WithTransformer), as client-go's does not.
func (s *threadSafeStore) Transaction(txns ...Transaction) *TransactionError {
	keyed := make([]ThreadSafeStoreTransaction, 0, len(txns))
	at := make([]int, 0, len(txns))
	var errs []error
	for i, txn := range txns {
		key, err := s.keyFunc(txn.Object)
		if err != nil {
			errs = append(errs, KeyError{txn.Object, err})
			continue
		}
		keyed = append(keyed, ThreadSafeStoreTransaction{Transaction: txn, Key: key})
		at = append(at, i)
	}
	failed := s.transact(keyed)
	succeeded := make([]int, 0, len(at))
	for i, txnIndex := range at {
		if err, ok := failed[i]; ok {
			errs = append(errs, err)
			continue
		}
		succeeded = append(succeeded, txnIndex)
	}
	if len(errs) == 0 {
		return nil
	}
	return &TransactionError{SuccessfulIndices: succeeded, TotalTransactions: len(txns), Errors: errs}
}

// transact applies txns under one write lock and returns, by index in
// txns, the error of each that could not be applied.
func (s *threadSafeStore) transact(txns []ThreadSafeStoreTransaction) map[int]error {
	ops := make([]store.Op, len(txns))
	for i, txn := range txns {
		ops[i] = store.Op{Key: txn.Key, Obj: txn.Object, Delete: txn.Type == TransactionTypeDelete, Name: string(txn.Type)}
		if txn.Type != TransactionTypeAdd && txn.Type != TransactionTypeUpdate && txn.Type != TransactionTypeDelete {
			ops[i] = store.Op{Key: txn.Key, Skip: true}
		}
	}
	return s.Transact(ops)
}

// Transaction applies txns in order under one lock, as Add, Update and
// Delete would, then records the resourceVersion of the last
// transaction's object when it has object metadata. Like Update, it panics
// when an index function fails on an object.
func (k *keyedStore) Transaction(txns ...ThreadSafeStoreTransaction) {
	if len(txns) == 0 {
		return
	}
	rv, hasRV := objectRV(txns[len(txns)-1].Object)
	k.mu.Lock()
	defer k.mu.Unlock()
	if failed := k.store.transact(txns); len(failed) > 0 {
		first := slices.Min(slices.Collect(maps.Keys(failed)))
		panic(k.writeFailure(txns[first].Key, txns[first].Object, failed[first]))
	}
	if hasRV {
		k.setRV(rv)
	}
}
