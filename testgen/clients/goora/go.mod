module sqlnetgen/goora-client

go 1.21

require github.com/sijms/go-ora/v2 v2.9.0
