package infile

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestGet(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok":
			w.Write([]byte("12345"))
		case "/big":
			w.Write([]byte("123456"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	if b, err := Get(ctx, srv.Client(), srv.URL+"/ok", 5); err != nil || string(b) != "12345" {
		t.Errorf("Get /ok = %q, %v", b, err)
	}
	for path, want := range map[string]string{"/big": "response larger than 5 bytes", "/missing": "HTTP 404 Not Found"} {
		if _, err := Get(ctx, srv.Client(), srv.URL+path, 5); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Get %s = %v, want an error with %q", path, err, want)
		}
	}
}
