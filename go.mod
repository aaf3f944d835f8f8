module td2048

go 1.26
