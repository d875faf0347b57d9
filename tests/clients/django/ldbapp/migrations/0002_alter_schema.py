from django.db import migrations, models
from django.db.models import F, Q


def fill_nickname(apps, schema_editor):
    Author = apps.get_model("ldbapp", "Author")
    for a in Author.objects.order_by("id"):
        a.nickname = a.name[:3].lower()
        a.save(update_fields=["nickname"])


def unfill_nickname(apps, schema_editor):
    pass


class Migration(migrations.Migration):

    dependencies = [
        ("ldbapp", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="book",
            name="edition",
            field=models.IntegerField(default=1),
        ),
        migrations.AddField(
            model_name="author",
            name="nickname",
            field=models.CharField(max_length=40, null=True),
        ),
        migrations.RunPython(fill_nickname, unfill_nickname),
        # max_length 100 -> 150
        migrations.AlterField(
            model_name="author",
            name="name",
            field=models.CharField(max_length=150),
        ),
        # max_length 13 -> 20 and NULL -> NOT NULL with a default
        migrations.AlterField(
            model_name="book",
            name="isbn",
            field=models.CharField(max_length=20, default=""),
            preserve_default=True,
        ),
        # NOT NULL -> NULL
        migrations.AlterField(
            model_name="review",
            name="body",
            field=models.TextField(null=True, default=""),
        ),
        # integer -> bigint widening
        migrations.AlterField(
            model_name="book",
            name="pages",
            field=models.BigIntegerField(default=0),
        ),
        migrations.RenameField(
            model_name="book",
            old_name="pages",
            new_name="page_count",
        ),
        # rename a column that is part of an index
        migrations.RenameField(
            model_name="author",
            old_name="score",
            new_name="rank_score",
        ),
        migrations.RemoveField(
            model_name="book",
            name="summary",
        ),
        migrations.AddIndex(
            model_name="book",
            index=models.Index(fields=["-created", "title"], name="book_created_idx"),
        ),
        migrations.AddIndex(
            model_name="author",
            index=models.Index(fields=["active", "joined"], name="author_active_joined_idx"),
        ),
        migrations.RemoveIndex(
            model_name="author",
            name="author_name_idx",
        ),
        migrations.AddConstraint(
            model_name="book",
            constraint=models.CheckConstraint(condition=Q(price__gte=0), name="book_price_nonneg"),
        ),
        migrations.AddConstraint(
            model_name="book",
            constraint=models.CheckConstraint(
                condition=Q(sold__gte=F("page_count")) | Q(sold=0), name="book_sold_ge_pages"
            ),
        ),
        migrations.RemoveConstraint(
            model_name="author",
            name="author_age_lt_200",
        ),
        migrations.AddConstraint(
            model_name="author",
            constraint=models.CheckConstraint(
                condition=Q(age__lt=150) | Q(age__isnull=True), name="author_age_lt_150"
            ),
        ),
        migrations.AlterUniqueTogether(
            name="book",
            unique_together={("author", "title", "edition")},
        ),
        migrations.RenameModel(
            old_name="Chapter",
            new_name="Section",
        ),
        migrations.AlterField(
            model_name="footnote",
            name="chapter",
            field=models.ForeignKey(
                on_delete=models.deletion.CASCADE, related_name="footnotes", to="ldbapp.section"
            ),
        ),
        migrations.RenameField(
            model_name="footnote",
            old_name="chapter",
            new_name="section",
        ),
        migrations.AlterField(
            model_name="section",
            name="book",
            field=models.ForeignKey(
                on_delete=models.deletion.CASCADE, related_name="sections", to="ldbapp.book"
            ),
        ),
        migrations.AlterModelTable(
            name="event",
            table="ldb_event",
        ),
        migrations.AddField(
            model_name="event",
            name="seq",
            field=models.PositiveIntegerField(null=True, unique=True),
        ),
    ]
