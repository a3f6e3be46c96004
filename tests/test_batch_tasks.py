"""Typed batch tasks: what make_task builds, that it pickles, and that every executor
gives the same results for the same tasks."""
from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path

import pytest

from batchkit import make_corpus
from specextract.batch.executors import LocalExecutor
from specextract.batch.run import process_task, reference_spec, run_batch
from specextract.batch.tasks import DocumentTask, ReferenceSpec, make_task
from specextract.batch.versions import check_version, pipeline_version
from specextract.check.reference import load_reference
from specextract.ingest.inputs import iter_input_files
from specextract.store.db import Store


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    return make_corpus(tmp_path_factory.mktemp("tasks") / "corpus", 6, paragraphs=2)


def _paths(corpus: Path) -> list[Path]:
    return sorted(corpus.iterdir())


def test_reference_spec_names_the_table_and_its_versions():
    ref = load_reference()
    spec = reference_spec(ref)
    assert spec == ReferenceSpec.of(ref)
    assert spec.path == str(Path(ref.path).resolve())
    assert spec.versions == (ref.version, ref.ratios_version, check_version(ref))
    assert spec.extras == tuple(str(Path(p).resolve()) for p in ref.extras)
    assert {spec: 1}[ReferenceSpec.of(ref)] == 1      # hashable: the workers' cache key


def test_a_full_task_survives_pickling_and_cannot_be_changed():
    task = DocumentTask("/in/a.txt", "/in/a\\udcff.txt", max_bytes=10, timeout=2.5,
                        reference=reference_spec(load_reference()), pages="/out/staging",
                        known_hash="ab" * 32, stored=({"chip": "NVIDIA A100", "value": "1"},),
                        data=b"A100 19.5 TFLOPS")
    for dumps, loads in [(pickle.dumps, pickle.loads), _cloudpickle()]:
        again = loads(dumps(task))
        assert again == task and type(again) is DocumentTask
        assert type(again.reference) is ReferenceSpec
    assert task.store_key == "/in/a\\udcff.txt" and DocumentTask("/in/b").store_key == "/in/b"
    with pytest.raises(dataclasses.FrozenInstanceError):
        task.path = "/elsewhere"  # type: ignore[misc]


def _cloudpickle():
    cloudpickle = pytest.importorskip("cloudpickle")   # what Dask sends tasks with
    return cloudpickle.dumps, cloudpickle.loads


def test_make_task_says_what_the_store_knows(corpus, tmp_path):
    ref = load_reference()
    spec, version = reference_spec(ref), pipeline_version()
    first = _paths(corpus)[0]
    with Store.open(tmp_path / "s.db") as store:
        new = make_task(first, store, version, reference=spec, pages="/p", timeout=9.0)
        assert (new.path, new.key, new.reference, new.pages, new.timeout) == \
            (str(first.absolute()), "", spec, "/p", 9.0)
        assert new.known_hash is None and new.stored is None and new.data is None
        with LocalExecutor() as executor:
            run_batch(iter_input_files([str(corpus)]), store, ref, executor)
        known = make_task(first, store, version, send_bytes=True, reference=spec)
        assert known.known_hash == store.known(str(first.absolute())).content_hash
        assert known.stored is None                    # same checker: nothing to re-check
        assert known.data == first.read_bytes()
        other_checker = dataclasses.replace(spec, check_version="another")
        recheck = make_task(first, store, version, reference=other_checker)
        rows = tuple(store.claim_rows(path=str(first.absolute())))
        assert rows and recheck.stored == rows
        assert make_task(first, store, "another-pipeline").known_hash is None


def _tasks(corpus: Path) -> list[DocumentTask]:
    spec = reference_spec(load_reference())
    return [DocumentTask(str(p.absolute()), reference=spec) for p in _paths(corpus)]


@pytest.mark.slow
def test_every_executor_gives_the_same_results_for_the_same_tasks(corpus):
    from specextract.batch.executors import DaskExecutor, PoolExecutor
    tasks = _tasks(corpus)
    with LocalExecutor() as here:
        local = list(here.map(process_task, tasks))
    assert all(r["status"] == "ok" and r["claims"] and r["checked"] for r in local)
    with PoolExecutor(2, chunksize=2) as pool:
        assert list(pool.map(process_task, tasks)) == local
    pytest.importorskip("distributed")
    with DaskExecutor("local", partition_size=2) as dask:
        assert list(dask.map(process_task, tasks)) == local
