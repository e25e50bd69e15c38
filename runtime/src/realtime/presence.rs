//! Presence channels: the members a subscription starts with, kept up to date from
//! `member_added` and `member_removed`.

use std::collections::BTreeMap;

use serde::Deserialize;

/// One member of a presence channel.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Member {
    /// The user's id.
    pub user_id: String,
    /// What the app's authorizer said about the user (`user_info`).
    pub user_info: serde_json::Value,
}

/// The members of a presence channel, by user id.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Members {
    members: BTreeMap<String, serde_json::Value>,
    me: Option<String>,
}

#[derive(Deserialize)]
struct Snapshot {
    #[serde(default)]
    ids: Vec<serde_json::Value>,
    #[serde(default)]
    hash: BTreeMap<String, serde_json::Value>,
}

/// A user id as servers send it: a string, or a number some servers pass through.
pub(crate) fn id_text(value: &serde_json::Value) -> Option<String> {
    match value {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

impl Members {
    /// Members from the `presence` object of `subscription_succeeded` (`{ids, hash, count}`);
    /// `me` is this connection's user id, when known.
    pub fn from_snapshot(presence: &serde_json::Value, me: Option<String>) -> Members {
        let snapshot: Snapshot = serde_json::from_value(presence.clone()).unwrap_or(Snapshot {
            ids: Vec::new(),
            hash: BTreeMap::new(),
        });
        let mut members: BTreeMap<String, serde_json::Value> = snapshot.hash;
        for id in snapshot.ids.iter().filter_map(id_text) {
            members.entry(id).or_insert(serde_json::Value::Null);
        }
        Members { members, me }
    }

    /// Adds or replaces a member.
    pub fn add(&mut self, user_id: String, user_info: serde_json::Value) {
        self.members.insert(user_id, user_info);
    }

    /// Removes a member; returns it when it was there.
    pub fn remove(&mut self, user_id: &str) -> Option<Member> {
        self.members.remove(user_id).map(|info| Member {
            user_id: user_id.to_owned(),
            user_info: info,
        })
    }

    /// A member by user id.
    pub fn get(&self, user_id: &str) -> Option<Member> {
        self.members.get(user_id).map(|info| Member {
            user_id: user_id.to_owned(),
            user_info: info.clone(),
        })
    }

    /// How many members.
    pub fn count(&self) -> usize {
        self.members.len()
    }

    /// Every member, ordered by user id.
    pub fn iter(&self) -> impl Iterator<Item = Member> + '_ {
        self.members.iter().map(|(id, info)| Member {
            user_id: id.clone(),
            user_info: info.clone(),
        })
    }

    /// This connection's own member, when known.
    pub fn me(&self) -> Option<Member> {
        self.me.as_deref().and_then(|id| self.get(id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tracks_members_from_snapshot_and_changes() {
        let snapshot =
            serde_json::json!({"ids": ["1", 2], "hash": {"1": {"name": "Ada"}}, "count": 2});
        let mut m = Members::from_snapshot(&snapshot, Some("1".into()));
        assert_eq!(m.count(), 2);
        assert_eq!(m.me().unwrap().user_info["name"], "Ada");
        assert!(m.get("2").is_some());
        m.add("3".into(), serde_json::json!({"name": "Grace"}));
        assert_eq!(m.remove("2").unwrap().user_id, "2");
        assert!(m.remove("2").is_none());
        let ids: Vec<String> = m.iter().map(|x| x.user_id).collect();
        assert_eq!(ids, ["1", "3"]);
        assert_eq!(
            Members::from_snapshot(&serde_json::json!("junk"), None).count(),
            0
        );
    }
}
