package chaos

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"
)

// statusWrites wraps the controller's transport: every successful PUT of
// a Widget's status subresource is journaled with the Widget's UID, read
// from the request body (custom resources are sent as JSON).
type statusWrites struct {
	next    http.RoundTripper
	journal *Journal
}

// RoundTrip implements http.RoundTripper.
func (s statusWrites) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodPut || !strings.HasSuffix(req.URL.Path, "/status") || !strings.Contains(req.URL.Path, "/widgets/") || req.Body == nil {
		return s.next.RoundTrip(req)
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	var obj struct {
		Metadata struct {
			UID  string `json:"uid"`
			Name string `json:"name"`
		} `json:"metadata"`
	}
	_ = json.Unmarshal(body, &obj)
	sent := time.Now().UnixNano()
	resp, err := s.next.RoundTrip(req)
	if err == nil && resp.StatusCode == http.StatusOK {
		s.journal.Append(Entry{Kind: EntryStatus, At: sent, Done: time.Now().UnixNano(), UID: obj.Metadata.UID, Name: obj.Metadata.Name})
	}
	return resp, err
}
