"""Course records, hand grades, late rules and the Canvas / Moodle exports.

Pure Python: the records are built by hand (or written by the grader's own
``update_csv`` from hand-made reports); no notebook runs. The exports are
checked against the import rules of each gradebook, as their sources state
them (Canvas's ``GradebookImporter``, Moodle's ``gradeimport_csv``).
"""

import argparse
import csv
import re
from datetime import datetime, timedelta, timezone

import pytest

from svmbook_classroom import GradeReport, QuestionGrade
from svmbook_classroom.gradebook import (
    CANVAS_STUDENT_COLUMNS,
    RECORD_COLUMNS,
    Gradebook,
    LateRule,
    QuestionRecord,
    Submission,
    add_gradebook_commands,
    build_gradebook,
    class_summaries,
    merge_hand_grades,
    read_records,
    submission_of,
    submission_time,
    summaries_by_assignment,
    write_canvas,
    write_moodle,
    write_records,
)
from svmbook_classroom.records import CSV_COLUMNS, update_csv

NBGRADER_FORMAT = "%Y-%m-%d %H:%M:%S.%f %Z"  # nbgrader's timestamp_format


def _path(student, assignment):
    return f"submitted/{student}/{assignment}/{assignment}.ipynb"


def _report(student, assignment, auto, manual=(), error=None, flags=()):
    """A grader's report: auto = [(id, points, max)], manual = [(id, max)]."""
    questions = [
        QuestionGrade(q, p, m, "passed" if p == m else "failed")
        for q, p, m in auto
    ] + [QuestionGrade(q, None, m, "manual") for q, m in manual]
    return GradeReport(
        _path(student, assignment),
        questions=[] if error else questions,
        error=error,
        flags=list(flags),
    )


@pytest.fixture
def course(tmp_path, monkeypatch):
    """A grades CSV as ``grade --csv`` writes it: 2 assignments, 3 students."""
    monkeypatch.chdir(tmp_path)
    reports = [
        _report(
            "alice",
            "03_smo",
            [("t_bounds", 3, 3), ("t_smo", 7, 7)],
            [("why", 2)],
        ),
        _report(
            "bob",
            "03_smo",
            [("t_bounds", 3, 3), ("t_smo", 0, 7)],
            [("why", 2)],
            flags=["FLAG: getattr with a computed name"],
        ),
        _report("carol", "03_smo", [], error="cannot grade: not a notebook"),
        _report("alice", "06_em_gmm", [("t_e", 4, 5), ("t_m", 5, 5)]),
        _report("bob", "06_em_gmm", [("t_e", 5, 5), ("t_m", 5, 5)]),
    ]
    update_csv(tmp_path / "grades.csv", reports)
    return tmp_path / "grades.csv"


def _write(path, text):
    path.write_text(text)
    return path


def _timestamp(folder, when):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "timestamp.txt").write_text(when.strftime(NBGRADER_FORMAT))


# ------------------------------------------------------------- the layout


def test_submission_of_reads_nbgrader_layout_and_the_flat_one():
    assert submission_of("/x/submitted/alice/03_smo/03_smo.ipynb") == (
        "alice",
        "03_smo",
    )
    assert submission_of("submitted/bob/06_em_gmm.ipynb") == (
        "bob",
        "06_em_gmm",
    )
    # the last 'submitted' counts: a course folder may itself be in one
    assert submission_of("submitted/c/submitted/dan/a1/n.ipynb") == (
        "dan",
        "a1",
    )


def test_submission_of_rejects_paths_that_name_no_student(tmp_path):
    with pytest.raises(ValueError, match="not in a 'submitted' folder"):
        submission_of("alice/03_smo.ipynb")
    with pytest.raises(ValueError, match="is not laid out as"):
        submission_of("submitted/03_smo.ipynb")
    with pytest.raises(ValueError, match="is not laid out as"):
        submission_of("submitted/a/b/c/d.ipynb")
    with pytest.raises(ValueError, match="not below the root"):
        submission_of("/elsewhere/alice/n.ipynb", root=tmp_path)


# ------------------------------------------------------------ the records


def test_read_records_gives_student_and_assignment_from_the_grader_csv(
    course,
):
    records = read_records(course)
    by = {(r.student_id, r.assignment): r for r in records}
    assert sorted(by) == [
        ("alice", "03_smo"),
        ("alice", "06_em_gmm"),
        ("bob", "03_smo"),
        ("bob", "06_em_gmm"),
        ("carol", "03_smo"),
    ]
    alice = by["alice", "03_smo"]
    assert [q.question for q in alice.questions] == [
        "t_bounds",
        "t_smo",
        "why",
    ]
    assert (alice.points, alice.max_points, alice.ungraded) == (
        10,
        12,
        ["why"],
    )
    assert by["bob", "03_smo"].flags == "FLAG: getattr with a computed name"
    assert not by["bob", "03_smo"].failed
    carol = by["carol", "03_smo"]
    assert carol.failed and carol.questions == []
    # the grades CSV itself is untouched: its consumers see what they saw
    with course.open() as handle:
        assert tuple(csv.DictReader(handle).fieldnames) == CSV_COLUMNS


def test_course_records_add_the_two_columns_and_read_back_the_same(
    course, tmp_path
):
    records = read_records(course)
    out = tmp_path / "records.csv"
    write_records(out, records)
    with out.open() as handle:
        reader = csv.DictReader(handle)
        assert tuple(reader.fieldnames) == RECORD_COLUMNS
        rows = list(reader)
    assert rows[0]["student_id"] == "alice"
    assert rows[0]["assignment"] == "03_smo"
    assert read_records(out) == records


def test_read_records_lists_every_bad_line(tmp_path):
    path = _write(
        tmp_path / "g.csv",
        "notebook,question,points,max_points,status,flags\n"
        "submitted/a/x/x.ipynb,q,1,two,passed,\n"
        "loose/x.ipynb,q,1,2,passed,\n"
        "submitted/a/x/x.ipynb,r,nan,2,passed,\n",
    )
    with pytest.raises(ValueError) as error:
        read_records(path)
    text = str(error.value)
    assert "line 2: max_points: 'two' is not a number" in text
    assert "line 3: notebook 'loose/x.ipynb'" in text
    assert "line 4: points: 'nan' is not finite" in text
    _write(tmp_path / "h.csv", "notebook,question,points\n")
    with pytest.raises(ValueError, match="missing column.*max_points"):
        read_records(tmp_path / "h.csv")


# ------------------------------------------------------------ hand grades


def test_merge_hand_grades_adds_points_to_written_answers(course, tmp_path):
    records = read_records(course)
    hand = _write(
        tmp_path / "hand.csv",
        "student_id,assignment,question,points,comment\n"
        "alice,03_smo,why,1.5,clear but no bound\n"
        "bob,03_smo,why,2,\n",
    )
    merged = merge_hand_grades(records, hand)
    by = {(r.student_id, r.assignment): r for r in merged}
    assert by["alice", "03_smo"].points == 11.5
    assert by["bob", "03_smo"].points == 5
    assert by["alice", "03_smo"].ungraded == []
    assert by["alice", "03_smo"].questions[-1].status == "hand-graded"
    # the records given are not changed
    assert read_records(course) == records
    # and the merged records keep the hand grades through the CSV
    write_records(tmp_path / "r.csv", merged)
    assert read_records(tmp_path / "r.csv") == merged


def test_merge_hand_grades_reports_every_wrong_line_and_merges_none(
    course, tmp_path
):
    records = read_records(course)
    hand = _write(
        tmp_path / "hand.csv",
        "student_id,assignment,question,points\n"
        "alice,03_smo,why,2.5\n"  # above the maximum
        "zoe,03_smo,why,1\n"  # no such student
        "alice,99_nope,why,1\n"  # no such assignment
        "alice,03_smo,t_smo,7\n"  # autograded, not written
        "alice,03_smo,wyh,1\n"  # typo
        "bob,03_smo,why,lots\n"  # not a number
        "bob,03_smo,why,-1\n"  # negative
        "alice,06_em_gmm,why,1\n"  # a question of another assignment
        "bob,03_smo,why,1\n"  # fine ...
        "bob,03_smo,why,2\n",  # ... then graded twice
    )
    with pytest.raises(ValueError) as error:
        merge_hand_grades(records, hand)
    lines = str(error.value).splitlines()[1:]
    assert [line.split(":")[0].strip() for line in lines] == [
        f"line {n}" for n in (2, 3, 4, 5, 6, 7, 8, 9, 11)
    ]
    text = str(error.value)
    assert "line 2: 2.5 points for why of 03_smo, which is worth 2" in text
    assert "no submission of 03_smo by student 'zoe'" in text
    assert "unknown assignment '99_nope'" in text
    assert "'t_smo' is not a written answer of 03_smo (those are: why)" in text
    assert "'wyh' is not a written answer" in text
    assert "'lots' is not a number" in text
    assert "-1 points for why of 03_smo" in text
    assert "'why' is not a written answer of 06_em_gmm (those are: none)" in (
        text
    )
    assert "already graded on line 10" in text
    missing = _write(tmp_path / "m.csv", "student,assignment,points\n")
    with pytest.raises(ValueError, match="missing column.*student_id"):
        merge_hand_grades(records, missing)


# ------------------------------------------------------------ late rules


def test_late_rule_counts_started_days():
    rule = LateRule("2026-11-20T23:59:00+01:00", 0.1)
    deadline = datetime(2026, 11, 20, 22, 59, tzinfo=timezone.utc)
    assert rule.deadline == deadline
    assert rule.days_late(deadline) == 0
    assert rule.days_late(deadline - timedelta(hours=5)) == 0
    assert rule.days_late(deadline + timedelta(seconds=1)) == 1
    assert rule.days_late(deadline + timedelta(days=1)) == 1
    assert rule.days_late(deadline + timedelta(days=1, seconds=1)) == 2
    assert rule.penalty_for(3, 20.0) == pytest.approx(6.0)
    points = LateRule(deadline, 1.5, unit="points")
    assert points.penalty_for(3, 20.0) == 4.5
    with pytest.raises(ValueError, match="no time zone"):
        rule.days_late(datetime(2026, 11, 21))


@pytest.mark.parametrize(
    "deadline, penalty, unit, message",
    [
        ("2026-11-20T23:59", 0.1, "fraction", "has no time zone"),
        ("next friday", 0.1, "fraction", "not an ISO 8601 time"),
        ("2026-11-20T23:59Z", 1.5, "fraction", "at most 1"),
        ("2026-11-20T23:59Z", -1, "points", "must be >= 0"),
        ("2026-11-20T23:59Z", float("inf"), "points", "must be >= 0"),
        ("2026-11-20T23:59Z", 0.1, "percent", "unit must be"),
    ],
)
def test_late_rule_rejects_bad_input(deadline, penalty, unit, message):
    with pytest.raises(ValueError, match=message):
        LateRule(deadline, penalty, unit)


def test_submission_time_reads_nbgrader_timestamp(tmp_path):
    folder = tmp_path / "submitted" / "alice" / "03_smo"
    when = datetime(2026, 11, 21, 8, 30, 5, 250000, tzinfo=timezone.utc)
    _timestamp(folder, when)
    assert (
        submission_time("submitted/alice/03_smo/03_smo.ipynb", base=tmp_path)
        == when
    )
    # another zone, as nbgrader writes it with c.Exchange.timezone set
    (folder / "timestamp.txt").write_text(
        "2026-11-21 09:30:05.250000 Europe/Paris"
    )
    assert submission_time(folder / "03_smo.ipynb") == when
    # a numeric offset is hours and minutes (nbgrader 0.9's parse_utc
    # would read +0100 as 100 seconds)
    (folder / "timestamp.txt").write_text("2026-11-21 09:30:05.250000 +0100")
    assert submission_time(folder / "03_smo.ipynb") == when
    (folder / "timestamp.txt").write_text("2026-11-21T08:30:05.25")
    assert submission_time(folder / "03_smo.ipynb") == when  # UTC
    (folder / "timestamp.txt").write_text("2026-11-21 09:30:05 Mars/Olympus")
    with pytest.raises(ValueError, match="unknown time zone"):
        submission_time(folder / "03_smo.ipynb")
    (folder / "timestamp.txt").write_text("")
    with pytest.raises(ValueError, match="is empty"):
        submission_time(folder / "03_smo.ipynb")
    (folder / "timestamp.txt").write_text("yesterday-ish")
    with pytest.raises(ValueError, match="is not a time"):
        submission_time(folder / "03_smo.ipynb")
    with pytest.raises(ValueError, match="no submission time"):
        submission_time(tmp_path / "submitted/bob/03_smo/03_smo.ipynb")


# ------------------------------------------------------------ the totals


def _hand(tmp_path):
    return _write(
        tmp_path / "hand.csv",
        "student_id,assignment,question,points\n"
        "alice,03_smo,why,1.5\nbob,03_smo,why,2\n",
    )


def test_build_gradebook_totals_each_assignment_apart(course, tmp_path):
    records = merge_hand_grades(read_records(course), _hand(tmp_path))
    book = build_gradebook(records, incomplete="zero")
    assert book.assignments == ["03_smo", "06_em_gmm"]
    assert book.points_possible == {"03_smo": 12.0, "06_em_gmm": 10.0}
    assert book.students == ["alice", "bob", "carol"]
    assert book.scores == {
        ("alice", "03_smo"): 11.5,
        ("bob", "03_smo"): 5.0,
        ("carol", "03_smo"): 0.0,  # could not be graded: zero, as asked
        ("alice", "06_em_gmm"): 9.0,
        ("bob", "06_em_gmm"): 10.0,
    }
    blank = build_gradebook(records, incomplete="blank")
    assert blank.scores[("carol", "03_smo")] is None
    assert ("carol", "06_em_gmm") not in blank.scores


def test_build_gradebook_refuses_totals_that_are_not_final(course):
    with pytest.raises(ValueError) as error:
        build_gradebook(read_records(course))
    text = str(error.value)
    assert "alice, 03_smo: 1 written answer(s) not graded" in text
    assert "bob, 03_smo: 1 written answer(s) not graded" in text
    assert "carol, 03_smo: not graded: ERROR: cannot grade" in text
    assert "06_em_gmm" not in text
    with pytest.raises(ValueError, match="incomplete must be one of"):
        build_gradebook([], incomplete="maybe")


def test_late_rule_takes_points_off_from_the_timestamps(course, tmp_path):
    records = merge_hand_grades(read_records(course), _hand(tmp_path))
    deadline = datetime(2026, 11, 20, 23, 59, tzinfo=timezone.utc)
    submitted = tmp_path / "submitted"
    _timestamp(submitted / "alice/03_smo", deadline - timedelta(hours=1))
    _timestamp(submitted / "bob/03_smo", deadline + timedelta(hours=30))
    _timestamp(submitted / "carol/03_smo", deadline + timedelta(days=9))
    rule = LateRule(deadline, 0.1)  # a tenth of 12 points per day
    book = build_gradebook(
        records, {"03_smo": rule}, base=tmp_path, incomplete="zero"
    )
    assert book.scores[("alice", "03_smo")] == 11.5  # on time
    assert book.scores[("bob", "03_smo")] == pytest.approx(5 - 2 * 1.2)
    assert book.late[("bob", "03_smo")] == (2, pytest.approx(2.4))
    # never below zero: carol had nothing to lose
    assert book.scores[("carol", "03_smo")] == 0.0
    assert book.late[("carol", "03_smo")] == (9, 0.0)
    # 06_em_gmm has no rule: its timestamps are not needed
    assert book.scores[("alice", "06_em_gmm")] == 9.0
    points = build_gradebook(
        records,
        {"03_smo": LateRule(deadline, 4, unit="points")},
        base=tmp_path,
        incomplete="zero",
    )
    assert points.scores[("bob", "03_smo")] == 0.0  # 5 - 8, floored
    assert points.late[("bob", "03_smo")] == (2, 5.0)


def test_late_rule_needs_every_timestamp_and_a_known_assignment(
    course, tmp_path
):
    records = merge_hand_grades(read_records(course), _hand(tmp_path))
    rule = LateRule("2026-11-20T23:59Z", 0.1)
    _timestamp(tmp_path / "submitted/alice/03_smo", datetime.now(timezone.utc))
    with pytest.raises(ValueError) as error:
        build_gradebook(records, {"03_smo": rule}, incomplete="zero")
    text = str(error.value)
    assert "cannot apply the late rules" in text
    assert "bob/03_smo/03_smo.ipynb" in text and "carol" in text
    assert "alice" not in text
    with pytest.raises(ValueError, match="unknown assignment.*3_smo"):
        build_gradebook(records, {"3_smo": rule}, incomplete="zero")


# ------------------------------------------------------------ the exports


def _canvas_header_ok(row):
    """Canvas's GradebookImporter#header? for a header without custom
    columns: "Student" and "ID" first, optionally "SIS User ID" followed by
    "SIS Login ID" (or "SIS Login ID" alone), then "Section"."""
    if not (len(row) > 3 and "Student" in row[0] and "ID" in row[1]):
        return None
    columns = 3
    if re.search(r"SIS\s+Login\s+ID", row[2]):
        columns += 1
    elif re.search(r"SIS\s+User\s+ID", row[2]) and re.search(
        r"SIS\s+Login\s+ID", row[3]
    ):
        columns += 2
    return columns if "Section" in row[columns - 1] else None


def _book():
    return Gradebook(
        assignments=["03_smo", "06_em_gmm"],
        points_possible={"03_smo": 12.0, "06_em_gmm": 10.0},
        students=["alice", "bob"],
        scores={
            ("alice", "03_smo"): 11.5,
            ("alice", "06_em_gmm"): 9.0,
            ("bob", "03_smo"): 2.6,
            ("bob", "06_em_gmm"): None,
        },
    )


def test_canvas_export_has_the_shape_canvas_imports(tmp_path):
    path = tmp_path / "canvas.csv"
    write_canvas(path, _book(), titles={"03_smo": "SMO (4021)"})
    with path.open(newline="") as handle:
        rows = list(csv.reader(handle))
    header, possible, *students = rows
    assert _canvas_header_ok(header) == 5
    assert tuple(header[:5]) == CANVAS_STUDENT_COLUMNS
    assert header[5:] == ["SMO (4021)", "06_em_gmm"]
    assert "Points Possible" in possible[0]
    assert possible[5:] == ["12", "10"]
    assert all(len(row) == len(header) for row in rows)
    assert students == [
        ["alice", "", "", "alice", "", "11.5", "9"],
        ["bob", "", "", "bob", "", "2.6", ""],  # blank: Canvas keeps it
    ]
    # the assignment cells parse as Canvas parses them: numbers or blank
    for row in students:
        for cell in row[5:]:
            assert cell == "" or float(cell) >= 0


def test_canvas_export_takes_students_from_a_canvas_roster(tmp_path):
    roster = _write(
        tmp_path / "export.csv",
        "Student,ID,SIS User ID,SIS Login ID,Section,SMO (4021),"
        "Current Score\n"
        "    Points Possible,,,,,12,(read only)\n"
        '"Liddell, Alice",1001,S-1,alice,Sec A,,\n'
        '"Builder, Bob",1002,S-2,bob,Sec B,,\n'
        '"Cheshire, Cat",1003,S-3,cat,Sec A,,\n',
    )
    path = tmp_path / "canvas.csv"
    write_canvas(path, _book(), roster=roster)
    with path.open(newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[2] == [
        "Liddell, Alice",
        "1001",
        "S-1",
        "alice",
        "Sec A",
        "11.5",
        "9",
    ]
    # a student of the course without a submission: a row of blanks
    assert rows[4] == ["Cheshire, Cat", "1003", "S-3", "cat", "Sec A", "", ""]
    short = _write(
        tmp_path / "short.csv",
        roster.read_text().replace(
            '"Builder, Bob",1002,S-2,bob,Sec B,,\n', ""
        ),
    )
    with pytest.raises(ValueError, match="not in the roster.*\n  bob"):
        write_canvas(path, _book(), roster=short)
    # the key decides the column that holds the student ID
    write_canvas(path, _book(), key="SIS User ID")
    with path.open(newline="") as handle:
        assert list(csv.reader(handle))[2][:5] == [
            "alice",
            "",
            "alice",
            "",
            "",
        ]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"key": "Email"}, "key must be"),
        ({"titles": {"03_smo": "Final Score"}}, "reserves or skips"),
        ({"titles": {"03_smo": "Section"}}, "reserves or skips"),
        ({"titles": {"03_smo": "06_em_gmm"}}, "same title"),
        ({"titles": {"99": "x"}}, "unknown assignment"),
    ],
)
def test_canvas_export_rejects_what_canvas_would_misread(
    tmp_path, kwargs, message
):
    with pytest.raises(ValueError, match=message):
        write_canvas(tmp_path / "c.csv", _book(), **kwargs)
    assert not (tmp_path / "c.csv").exists()


def test_moodle_export_has_the_shape_moodle_imports(tmp_path):
    path = tmp_path / "moodle.csv"
    write_moodle(path, _book())
    with path.open(newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows == [
        ["Username", "03_smo", "06_em_gmm"],
        ["alice", "11.5", "9"],
        ["bob", "2.6", ""],
    ]
    roster = _write(
        tmp_path / "roster.csv",
        "Username,Email address\nalice,alice@uni.example\n"
        "bob,bob@uni.example\n",
    )
    write_moodle(
        path,
        _book(),
        identifier="Email address",
        roster=roster,
        titles={"03_smo": "Assignment 3"},
    )
    with path.open(newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == ["Email address", "Assignment 3", "06_em_gmm"]
    assert [row[0] for row in rows[1:]] == [
        "alice@uni.example",
        "bob@uni.example",
    ]
    # Moodle aborts the whole import at a row whose user it cannot find
    _write(roster, "Username,Email address\nalice,alice@uni.example\nbob,\n")
    with pytest.raises(ValueError, match="no Email address in the roster"):
        write_moodle(path, _book(), identifier="Email address", roster=roster)


# ------------------------------------------------------------ summaries


def test_class_summaries_never_add_two_assignments(course, tmp_path):
    records = merge_hand_grades(read_records(course), _hand(tmp_path))
    summary = class_summaries(records)
    totals = {s["assignment"]: s for s in summary if s["question"] == "TOTAL"}
    assert set(totals) == {"03_smo", "06_em_gmm"}
    smo, gmm = totals["03_smo"], totals["06_em_gmm"]
    assert smo["max_points"] == 12 and gmm["max_points"] == 10
    assert smo["graded"] == 3  # alice, bob, carol
    assert smo["mean_points"] == pytest.approx((11.5 + 5 + 0) / 3)
    assert smo["flagged"] == 2  # bob's flag, carol's error
    assert gmm["mean_points"] == pytest.approx((9 + 10) / 2)
    assert gmm["full_marks"] == 0.5
    t_smo = next(s for s in summary if s["question"] == "t_smo")
    assert (t_smo["graded"], t_smo["mean_points"]) == (2, 3.5)
    assert [s["question"] for s in summary if s["assignment"] == "03_smo"] == [
        "t_bounds",
        "t_smo",
        "why",
        "TOTAL",
    ]


def test_summaries_by_assignment_splits_a_grading_run():
    reports = [
        _report("alice", "03_smo", [("t", 3, 4)]),
        _report("bob", "03_smo", [("t", 4, 4)]),
        _report("alice", "06_em_gmm", [("q", 5, 5)]),
        GradeReport(
            "loose/07_multiclass.ipynb",
            questions=[QuestionGrade("v", 1.0, 2.0, "failed")],
        ),
    ]
    summaries = summaries_by_assignment(reports)
    assert list(summaries) == ["03_smo", "06_em_gmm", "07_multiclass"]
    total = summaries["03_smo"][-1]
    assert (total["max_points"], total["graded"], total["mean_points"]) == (
        4.0,
        2,
        3.5,
    )
    assert summaries["06_em_gmm"][-1]["max_points"] == 5.0


# ------------------------------------------------------------ the commands


def _main(argv):
    parser = argparse.ArgumentParser(prog="svmbook-classroom")
    add_gradebook_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.handler(args)


def test_commands_merge_export_and_summarise(course, tmp_path, capsys):
    hand = _hand(tmp_path)
    assert (
        _main(
            [
                "merge-hand-grades",
                str(course),
                str(hand),
                "--out",
                "records.csv",
            ]
        )
        == 0
    )
    assert "5 notebooks, 2 written answers graded by hand" in (
        capsys.readouterr().out
    )
    _timestamp(
        tmp_path / "submitted/bob/03_smo",
        datetime(2026, 11, 21, 12, tzinfo=timezone.utc),
    )
    for name in ("alice", "carol"):
        _timestamp(
            tmp_path / "submitted" / name / "03_smo",
            datetime(2026, 11, 20, tzinfo=timezone.utc),
        )
    status = _main(
        [
            "export-gradebook",
            "canvas",
            "records.csv",
            "--out",
            "canvas.csv",
            "--deadline",
            "03_smo=2026-11-20T23:59+00:00",
            "--late-penalty",
            "0.25",
            "--incomplete",
            "zero",
            "--title",
            "03_smo=SMO (4021)",
        ]
    )
    assert status == 0
    out = capsys.readouterr().out
    assert "3 students, 2 assignments" in out
    assert "late: bob, 03_smo: 1 day(s), -3 points" in out
    with (tmp_path / "canvas.csv").open(newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0][5:] == ["SMO (4021)", "06_em_gmm"]
    assert rows[3] == ["bob", "", "", "bob", "", "2", "10"]
    assert (
        _main(
            [
                "export-gradebook",
                "moodle",
                str(course),
                "--hand",
                str(hand),
                "--out",
                "moodle.csv",
                "--incomplete",
                "blank",
            ]
        )
        == 0
    )
    with (tmp_path / "moodle.csv").open(newline="") as handle:
        assert list(csv.reader(handle))[1:] == [
            ["alice", "11.5", "9"],
            ["bob", "5", "10"],
            ["carol", "", ""],
        ]
    assert _main(["class-summaries", "records.csv", "--out", "s.csv"]) == 0
    out = capsys.readouterr().out
    assert "Class summary: 03_smo" in out and "Class summary: 06_em_gmm" in out
    with (tmp_path / "s.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert [r["question"] for r in rows].count("TOTAL") == 2


def test_commands_report_bad_input_with_status_2(course, tmp_path, capsys):
    bad = _write(
        tmp_path / "bad.csv",
        "student_id,assignment,question,points\nalice,03_smo,why,9\n",
    )
    assert (
        _main(["merge-hand-grades", str(course), str(bad), "--out", "r.csv"])
        == 2
    )
    err = capsys.readouterr().err
    assert "merge-hand-grades failed" in err and "line 2: 9 points" in err
    assert not (tmp_path / "r.csv").exists()
    assert (
        _main(["export-gradebook", "moodle", str(course), "--out", "m.csv"])
        == 2
    )
    assert "written answer(s) not graded" in capsys.readouterr().err
    assert (
        _main(
            [
                "export-gradebook",
                "canvas",
                str(course),
                "--out",
                "c.csv",
                "--deadline",
                "03_smo=2026-11-20T23:59",
            ]
        )
        == 2
    )
    assert "--deadline needs --late-penalty" in capsys.readouterr().err
    assert (
        _main(
            [
                "export-gradebook",
                "canvas",
                str(course),
                "--out",
                "c.csv",
                "--deadline",
                "03_smo=2026-11-20T23:59",
                "--late-penalty",
                "0.1",
                "--incomplete",
                "zero",
            ]
        )
        == 2
    )
    assert "has no time zone" in capsys.readouterr().err
    assert not (tmp_path / "c.csv").exists()
    with pytest.raises(SystemExit):
        _main(
            [
                "export-gradebook",
                "canvas",
                str(course),
                "--out",
                "c.csv",
                "--title",
                "no-equals-sign",
            ]
        )


def test_merge_hand_grades_refuses_a_question_in_two_notebooks(tmp_path):
    # nbgrader's grade_ids are unique within a notebook only
    records = [
        Submission(
            "alice",
            "a1",
            f"submitted/alice/a1/{name}.ipynb",
            [QuestionRecord("why", None, 2.0, "manual")],
        )
        for name in ("part1", "part2")
    ]
    hand = _write(
        tmp_path / "hand.csv",
        "student_id,assignment,question,points\nalice,a1,why,1\n",
    )
    with pytest.raises(ValueError, match="in two notebooks.*cannot tell"):
        merge_hand_grades(records, hand)
    # the totals of an assignment add its notebooks
    book = build_gradebook(records, incomplete="zero")
    assert book.points_possible == {"a1": 4.0}


def test_the_classroom_command_has_the_gradebook_subcommands(
    course, tmp_path, capsys
):
    from svmbook_classroom import main

    hand = _hand(tmp_path)
    assert (
        main(
            [
                "merge-hand-grades",
                str(course),
                str(hand),
                "--out",
                "records.csv",
            ]
        )
        == 0
    )
    assert (
        main(
            [
                "export-gradebook",
                "moodle",
                "records.csv",
                "--out",
                "moodle.csv",
                "--incomplete",
                "zero",
            ]
        )
        == 0
    )
    with (tmp_path / "moodle.csv").open(newline="") as handle:
        assert list(csv.reader(handle))[0] == [
            "Username",
            "03_smo",
            "06_em_gmm",
        ]
    assert main(["class-summaries", "records.csv"]) == 0
    assert "Class summary: 06_em_gmm" in capsys.readouterr().out
