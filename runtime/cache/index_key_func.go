package cache

import "fmt"

// IndexFuncToKeyFuncAdapter adapts an IndexFunc to a KeyFunc. This is
// only useful if your index function returns unique values for every
// object. The KeyFunc fails with the index function's error, with "too
// many keys: [...]" when it returns more than one value and with
// "unexpected empty indexKeys" when it returns none (client-go's
// messages). Prefer proper key and index functions.
func IndexFuncToKeyFuncAdapter(indexFunc IndexFunc) KeyFunc {
	return func(obj any) (string, error) {
		indexKeys, err := indexFunc(obj)
		if err != nil {
			return "", err
		}
		switch len(indexKeys) {
		case 0:
			return "", fmt.Errorf("unexpected empty indexKeys")
		case 1:
			return indexKeys[0], nil
		}
		return "", fmt.Errorf("too many keys: %v", indexKeys)
	}
}
