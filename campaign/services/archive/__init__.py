"""Campaign export and import: a versioned JSON archive of everything the campaign keeps, the game
sessions played at the table included (their seats, their logs, their result). One module per
part: format.py (the versions and sections), export.py (the exporter), export_queue.py (the export's
task and its queue), restore.py with importer.py, section_importers.py and bulk_writer.py (the
import), value_checks.py (each value an archive brings). Import the module you need."""
