from django.contrib import admin

from campaign import models


class HouseInline(admin.TabularInline):
    model = models.House
    extra = 0


@admin.register(models.Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "created_at", "grand_finale_ready", "closed"]
    inlines = [HouseInline]


@admin.register(models.House)
class HouseAdmin(admin.ModelAdmin):
    list_display = ["name", "number", "campaign", "player_name"]
    list_filter = ["campaign"]


@admin.register(models.LedgerEntry)
class LedgerEntryAdmin(admin.ModelAdmin):
    list_display = ["house", "kind", "amount", "reason", "source", "game", "created_at"]
    list_filter = ["kind", "source", "house__campaign"]


@admin.register(models.Achievement)
class AchievementAdmin(admin.ModelAdmin):
    list_display = ["name", "house", "kind", "agenda", "marked", "spaces"]
    list_filter = ["kind", "house__campaign"]


@admin.register(models.ChronicleSticker)
class ChronicleStickerAdmin(admin.ModelAdmin):
    list_display = ["number", "row", "positive", "signer", "slot", "marks", "covered", "game"]
    list_filter = ["campaign", "row", "covered"]


@admin.register(models.Envelope)
class EnvelopeAdmin(admin.ModelAdmin):
    list_display = ["number", "campaign", "special", "opened_by", "game", "opened_at"]


@admin.register(models.StoryCard)
class StoryCardAdmin(admin.ModelAdmin):
    list_display = ["number", "storyline", "order", "signer", "is_ending", "campaign"]


@admin.register(models.DilemmaCard)
class DilemmaCardAdmin(admin.ModelAdmin):
    list_display = ["number", "kind", "place", "campaign"]
    list_filter = ["campaign", "kind", "place"]


class ChronicleScoreInline(admin.TabularInline):
    model = models.ChronicleScore
    extra = 0


@admin.register(models.ChronicleGame)
class ChronicleGameAdmin(admin.ModelAdmin):
    list_display = ["number", "king_name", "campaign", "played_on", "end", "revision"]
    inlines = [ChronicleScoreInline]


@admin.register(models.MysterySticker)
class MysteryStickerAdmin(admin.ModelAdmin):
    list_display = ["letter", "campaign", "game", "attached_at"]


@admin.register(models.CampaignEvent)
class CampaignEventAdmin(admin.ModelAdmin):
    list_display = ["created_at", "campaign", "kind", "summary", "actor", "game"]
    list_filter = ["campaign", "kind"]
    search_fields = ["summary"]
