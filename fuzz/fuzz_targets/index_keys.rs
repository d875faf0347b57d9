//! Index keys decoded from arbitrary bytes, as a damaged page would give
//! them: every column type either decodes a value or reports malformed
//! input, never panics; a decoded value encodes back to the bytes it was
//! read from (DOUBLE: to bytes that decode to an equal number, as -0.0 is
//! written as 0.0). A collation key that does not give its string back
//! (utf8mb4_general_ci) is skipped whole or reported malformed.
#![no_main]
use libfuzzer_sys::fuzz_target;
use lineardb_table::key::{decode_value, encode_value, skip_value};
use lineardb_table::{DataType, KeyColumn, Value};

fn column(selector: u8) -> KeyColumn {
    let unsigned = selector & 0x10 != 0;
    let data_type = match selector % 12 {
        0 => DataType::TinyInt { unsigned },
        1 => DataType::SmallInt { unsigned },
        2 => DataType::MediumInt { unsigned },
        3 => DataType::Int { unsigned },
        4 => DataType::BigInt { unsigned },
        5 => DataType::Decimal {
            precision: 10,
            scale: 2,
        },
        6 => DataType::Decimal {
            precision: 30,
            scale: 5,
        },
        7 => DataType::Double,
        8 => DataType::Date,
        9 => DataType::DateTime,
        10 => DataType::VarBinary(255),
        _ => DataType::VarChar(255),
    };
    KeyColumn::new(data_type, selector & 0x20 != 0)
}

fuzz_target!(|data: &[u8]| {
    let Some((&count, rest)) = data.split_first() else {
        return;
    };
    let count = (count % 4) as usize + 1;
    if rest.len() < count {
        return;
    }
    let (selectors, key) = rest.split_at(count);
    let columns: Vec<KeyColumn> = selectors.iter().map(|&s| column(s)).collect();
    let mut pos = 0;
    let mut skipped = 0;
    for col in &columns {
        if !col.gives_value() {
            if skip_value(col, key, &mut pos).is_none() {
                break;
            }
            assert!(pos <= key.len());
            skipped = pos;
            continue;
        }
        let start = pos;
        let Some(value) = decode_value(col, key, &mut pos) else {
            break;
        };
        assert!(pos <= key.len());
        assert!(skip_value(col, key, &mut skipped).is_some());
        assert_eq!(skipped, pos, "skip_value and decode_value disagree");
        let mut again = Vec::new();
        encode_value(col, &value, &mut again);
        if let Value::Double(x) = value {
            let back = decode_value(col, &again, &mut 0);
            let same = matches!(back, Some(Value::Double(y)) if y == x || (x.is_nan() && y.is_nan()));
            assert!(same, "{col:?}: {value:?} decodes back as {back:?}");
        } else {
            assert_eq!(again, key[start..pos], "{col:?}: {value:?} re-encodes differently");
        }
    }
});
