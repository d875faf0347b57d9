# Final state (after migration 0002).
import uuid

from django.db import models
from django.db.models import F, Q


class Author(models.Model):
    name = models.CharField(max_length=150)
    nickname = models.CharField(max_length=40, null=True)
    email = models.EmailField(unique=True)
    bio = models.TextField(blank=True, default="")
    age = models.PositiveIntegerField(null=True)
    active = models.BooleanField(default=True)
    joined = models.DateField()
    rank_score = models.FloatField(default=0.0)

    class Meta:
        indexes = [models.Index(fields=["active", "joined"], name="author_active_joined_idx")]
        constraints = [
            models.CheckConstraint(
                condition=Q(age__lt=150) | Q(age__isnull=True), name="author_age_lt_150"
            )
        ]


class Tag(models.Model):
    name = models.CharField(max_length=30, unique=True)


class Book(models.Model):
    title = models.CharField(max_length=200)
    author = models.ForeignKey(Author, on_delete=models.CASCADE, related_name="books")
    tags = models.ManyToManyField(Tag, related_name="books", blank=True)
    page_count = models.BigIntegerField(default=0)
    edition = models.IntegerField(default=1)
    sold = models.BigIntegerField(default=0)
    price = models.DecimalField(max_digits=8, decimal_places=2)
    rating = models.FloatField(null=True)
    published = models.DateField(null=True)
    created = models.DateTimeField()
    read_time = models.DurationField(null=True)
    start_time = models.TimeField(null=True)
    uid = models.UUIDField(default=uuid.uuid4, unique=True)
    data = models.JSONField(default=dict)
    blob = models.BinaryField(null=True)
    isbn = models.CharField(max_length=20, default="")

    class Meta:
        unique_together = [("author", "title", "edition")]
        indexes = [models.Index(fields=["-created", "title"], name="book_created_idx")]
        constraints = [
            models.UniqueConstraint(fields=["title", "published"], name="book_title_pub_uniq"),
            models.CheckConstraint(condition=Q(price__gte=0), name="book_price_nonneg"),
            models.CheckConstraint(
                condition=Q(sold__gte=F("page_count")) | Q(sold=0), name="book_sold_ge_pages"
            ),
        ]


class Review(models.Model):
    book = models.ForeignKey(Book, on_delete=models.CASCADE, related_name="reviews")
    stars = models.SmallIntegerField()
    body = models.TextField(null=True, default="")
    created = models.DateTimeField(auto_now_add=True)


class Section(models.Model):
    book = models.ForeignKey(Book, on_delete=models.CASCADE, related_name="sections")
    number = models.IntegerField()
    title = models.CharField(max_length=50)


class Footnote(models.Model):
    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="footnotes")
    text = models.CharField(max_length=100)


class Event(models.Model):
    name = models.CharField(max_length=50)
    at = models.DateTimeField()
    day = models.DateField(null=True)
    note = models.CharField(max_length=20, null=True, default=None)
    seq = models.PositiveIntegerField(null=True, unique=True)

    class Meta:
        db_table = "ldb_event"
