# fairaudit: the README's commands. `make test` is what CI runs.
FAIRAUDIT := bin/fairaudit

.PHONY: all build test typecheck lint unit reproduce reproduce-variability bench regress clean

all: build

node_modules/.package-lock.json: package-lock.json
	npm ci --no-audit --no-fund

build: node_modules/.package-lock.json
	npm run --silent build

typecheck: node_modules/.package-lock.json
	npx tsc -p tsconfig.json --noEmit

lint: node_modules/.package-lock.json
	npx biome lint --error-on-warnings src test papers
	npx biome format src test papers
	node scripts/check-line-length.mjs

unit: build
	npx vitest run

## Type-check, lint, then every unit and integration test.
test: build typecheck lint unit

## The main job: reproduce the papers' tables and figures into results/.
reproduce: build
	$(FAIRAUDIT) reproduce all

## Training variability: every trained model under 10 model seeds and 10 split seeds
## (19 seed pairs), each trained cell judged against its seeds (docs/paper-a.md, docs/respir.md).
reproduce-variability: build
	$(FAIRAUDIT) reproduce all --model-seeds 10

## Speed figures (commands that print numbers, not timed tests).
bench: build
	$(FAIRAUDIT) bench glr
	$(FAIRAUDIT) bench runner
	$(FAIRAUDIT) bench pir
	$(FAIRAUDIT) bench respir
	$(FAIRAUDIT) bench paper-a

## Regression run against BASE (a git ref): results and speed of both builds, one report, exit 1 on a
## regression (scripts/regress.sh; REGRESS_SUITE=tiny for a quick one). Example: make regress BASE=main
regress: build
	scripts/regress.sh $(BASE)

clean:
	rm -rf dist results/*
