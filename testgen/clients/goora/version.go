package main

// goOraVersion must match the require line in go.mod.
const goOraVersion = "v2.9.0"
